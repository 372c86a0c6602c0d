// Steering through the chat's own handler (the webview's `steer` message) and the real SessionBackend, with the
// fake agent taught to steer (--steering; the steered text's first word picks the agent's answer): the
// composer's offer and Enter's setting, a message injected into the running turn (marked where it went), each
// other answer (promptRequired after a race, startedNewTurn, an error, an answer of no known kind) and a steer
// after the turn ended: a message the agent did not take is queued and sent exactly once. No answer in time is
// the same `failed` for the chat; its timeout is checked with a short one in test/unit/hostPure/steerTurn.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { setSettings, waitFor } from '../index';
import { prompt, textOf, transcriptOf, withFakeAgents } from './helpers';

const record = path.join(os.tmpdir(), `switchboard-steering-${process.pid}-${Date.now()}.jsonl`);

describe('steering: a message sent into the running turn', function () {
  this.timeout(120_000);
  const context = withFakeAgents({ Steerer: ['--steering', `--record=${record}`], 'No Steering': [`--record=${record}-plain`] });
  after(() => {
    for (const f of [record, `${record}-plain`]) fs.rmSync(f, { force: true });
  });

  const sb = () => context.sb;
  const view = (id: string) => sb().backend.sessions.snapshots().find((s) => s.view.sessionId === id)!.view;
  const items = (id: string) => transcriptOf(sb(), id).items;
  const said = (id: string) => items(id).filter((i) => i.kind === 'agent_message').map(textOf);
  /** The requests the agent got with a text block equal to `text`, by method. */
  const requests = (file: string, method: string, text: string) =>
    (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [])
      .map((l) => JSON.parse(l) as { method: string; params: { prompt?: Array<{ type: string; text?: string }> } })
      .filter((r) => r.method === method && r.params.prompt?.some((b) => b.text === text));
  const send = (sessionId: string, text: string) => sb().chat.controller.handleMessage({ type: 'prompt', sessionId, prompt: prompt(text) });
  const steer = (sessionId: string, text: string) => sb().chat.controller.handleMessage({ type: 'steer', sessionId, prompt: prompt(text) });
  const queued = (id: string) => sb().chat.controller.queued(id).map((q) => q.text);

  /** A new session of `agent` whose turn runs (`steerable`: it waits for a steer). */
  async function runningTurn(agent = 'Steerer', command = 'steerable'): Promise<string> {
    const id = await sb().backend.lifecycle.open(agent);
    send(id, command);
    await waitFor(() => view(id).turn === 'running' && said(id).length > 0, 'the turn to run and the agent to speak', 30_000);
    return id;
  }
  const idle = (id: string, what: string) => waitFor(() => view(id).turn === 'idle' && queued(id).length === 0, what, 60_000);
  const shown = (id: string) => items(id).flatMap((i: TranscriptItem) => (i.kind === 'user_message' ? [`${i.steered ? 'steered' : 'you'}: ${textOf(i)}`] : i.kind === 'agent_message' ? [`agent: ${textOf(i)}`] : i.kind === 'turn_end' ? ['end'] : []));

  /**
   * A session whose agent answered a steer with startedNewTurn and then says nothing, with a message queued
   * behind that turn; started before the tests so the product's 30 s quiet time passes while they run.
   */
  let silent: Promise<string>;
  before(() => {
    silent = (async () => {
      const id = await runningTurn();
      steer(id, 'new-turn-mute please');
      await waitFor(() => shown(id).includes('steered: new-turn-mute please') && view(id).turn === 'running', "the agent's own turn to show running", 30_000);
      send(id, 'after the silence');
      return id;
    })();
    // Awaited by its test; a failure here is that test's, not an unhandled rejection meanwhile.
    silent.catch(() => undefined);
  });

  it('offered while the agent steers, with what Enter does; not offered by an agent without steering', async () => {
    const id = await sb().backend.lifecycle.open('Steerer');
    assert.strictEqual(view(id).capabilities.steering, true);
    assert.strictEqual(view(id).enterWhileRunning, 'queue', 'Enter keeps queueing by default');
    const restore = await setSettings({ 'switchboard.enterWhileRunning': 'steer' });
    try {
      await waitFor(() => view(id).enterWhileRunning === 'steer', 'the view to say Enter steers');
    } finally {
      await restore();
    }
    await waitFor(() => view(id).enterWhileRunning === 'queue', 'back to queue');
    const plain = await sb().backend.lifecycle.open('No Steering');
    assert.strictEqual(view(plain).capabilities.steering, false);
    assert.strictEqual(view(plain).enterWhileRunning, undefined);
  });

  it('injected: the message shows where the agent took it, marked steered, and the same turn answers it', async () => {
    const id = await runningTurn();
    steer(id, 'use tabs, not spaces');
    await idle(id, 'the steered turn to end');
    assert.deepStrictEqual(shown(id), ['you: steerable', 'agent: waiting for a steer', 'steered: use tabs, not spaces', 'agent: steered: use tabs, not spaces', 'end']);
    assert.strictEqual(requests(record, '_session/steering', 'use tabs, not spaces').length, 1);
    assert.strictEqual(requests(record, 'session/prompt', 'use tabs, not spaces').length, 0, 'never sent again as a prompt');
    assert.strictEqual(view(id).error, undefined);
  });

  it('a steer that races the end of the turn (promptRequired) is sent as the next prompt, exactly once', async () => {
    const id = await runningTurn();
    steer(id, 'race the end');
    await waitFor(() => said(id).includes('echo: race the end'), 'the message answered as a prompt', 60_000);
    await idle(id, 'the turns to end');
    assert.deepStrictEqual(shown(id), ['you: steerable', 'agent: waiting for a steer', 'end', 'you: race the end', 'agent: echo: race the end', 'end']);
    assert.strictEqual(requests(record, 'session/prompt', 'race the end').length, 1, 'exactly one prompt');
  });

  it('a Steer once the turn has ended (a composer that had not heard yet) goes as a prompt without asking the agent to steer', async () => {
    const id = await sb().backend.lifecycle.open('Steerer');
    await sb().backend.sessions.require(id).prompt(prompt('hello'));
    steer(id, 'late steer');
    await waitFor(() => said(id).includes('echo: late steer'), 'the message answered as a prompt', 60_000);
    assert.strictEqual(requests(record, '_session/steering', 'late steer').length, 0);
    assert.strictEqual(requests(record, 'session/prompt', 'late steer').length, 1);
  });

  /** A session whose own turn ended and whose agent started one of its own with the steered `text`. */
  async function agentsOwnTurn(text: string): Promise<string> {
    const id = await runningTurn();
    steer(id, text);
    await waitFor(() => said(id).includes(`new turn: ${text}`), "the agent's own turn to speak", 30_000);
    return id;
  }
  const cancels = (id: string) =>
    (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter(Boolean) : [])
      .map((l) => JSON.parse(l) as { method: string; params: { sessionId?: string } })
      .filter((r) => r.method === 'session/cancel' && r.params.sessionId === sb().backend.sessions.get(id)?.acpSessionId).length;

  it("startedNewTurn: the agent's own turn shows running; a message sent meanwhile is queued, a steer goes into it, and it ends at the agent's end marker", async () => {
    const id = await agentsOwnTurn('new-turn here');
    assert.ok(shown(id).includes('steered: new-turn here'), shown(id).join(' | '));
    assert.ok(items(id).some((i) => i.kind === 'notice' && /started a new turn with your message/.test(i.title)));
    assert.strictEqual(requests(record, 'session/prompt', 'new-turn here').length, 0, 'not sent again');
    assert.strictEqual(view(id).turn, 'running', "the agent's own turn shows running");
    send(id, 'after your turn');
    await waitFor(() => queued(id).includes('after your turn'), 'the message queued behind the running turn', 30_000);
    steer(id, 'wrap it up');
    await idle(id, "the agent's turn to end and the queued message to go");
    assert.deepStrictEqual(shown(id), [
      'you: steerable', 'agent: waiting for a steer', 'end',
      'steered: new-turn here', 'agent: new turn: new-turn here', 'steered: wrap it up', 'agent: steered: wrap it up', 'end',
      'you: after your turn', 'agent: echo: after your turn', 'end',
    ]);
    assert.strictEqual(requests(record, '_session/steering', 'wrap it up').length, 1, 'steered into the running turn');
    assert.strictEqual(requests(record, 'session/prompt', 'after your turn').length, 1, 'the queued message sent once, after the end');
  });

  it("Stop ends the agent's own turn (session/cancel); what the agent says after that does not make it run again, and the next prompt goes", async () => {
    const id = await agentsOwnTurn('new-turn to stop');
    assert.strictEqual(view(id).turn, 'running');
    await sb().chat.controller.handleMessage({ type: 'cancel', sessionId: id });
    await waitFor(() => view(id).turn === 'idle', 'the turn stopped', 30_000);
    const ends = items(id).filter((i) => i.kind === 'turn_end');
    assert.strictEqual(ends.at(-1)?.kind === 'turn_end' && ends.at(-1)?.stopReason, 'cancelled');
    await waitFor(() => cancels(id) === 1, 'session/cancel sent to the agent once', 30_000);
    await waitFor(() => said(id).includes('still talking after the cancel'), 'the agent to speak after the cancel', 30_000);
    assert.strictEqual(view(id).turn, 'idle', 'still idle');
    send(id, 'after the stop');
    await waitFor(() => said(id).includes('echo: after the stop'), 'the next prompt answered', 60_000);
    await idle(id, 'that turn to end');
  });

  it("closing the session while the agent's own turn runs: the turn is stopped at the agent and the tab closes", async () => {
    const id = await agentsOwnTurn('new-turn then close');
    const acpSessionId = sb().backend.sessions.get(id)!.acpSessionId;
    await sb().backend.lifecycle.close(id);
    assert.ok(!sb().backend.sessions.snapshots().some((s) => s.view.sessionId === id), 'the tab is gone');
    const cancelled = () =>
      fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { method: string; params: { sessionId?: string } })
        .some((r) => r.method === 'session/cancel' && r.params.sessionId === acpSessionId);
    await waitFor(cancelled, 'session/cancel sent to the agent', 30_000);
  });

  it('an error or an answer of no known kind: said in the chat, the message kept in the queue and sent once after the turn', async () => {
    const id = await runningTurn();
    for (const text of ['error one', 'garbage two']) {
      steer(id, text);
      await waitFor(() => queued(id).includes(text), `"${text}" kept in the queue`, 30_000);
    }
    const notices = items(id).filter((i) => i.kind === 'notice' && /not steered/.test(i.title));
    assert.strictEqual(notices.length, 2, 'each said once');
    assert.ok(notices.every((n) => n.kind === 'notice' && /waits in the queue/.test(n.description ?? '')), 'each says the way forward');
    assert.strictEqual(view(id).turn, 'running', 'the turn kept running');
    steer(id, 'finish now');
    await idle(id, 'the turn and the queue to be done');
    for (const text of ['error one', 'garbage two']) {
      assert.strictEqual(requests(record, 'session/prompt', text).length, 1, `"${text}" sent as a prompt exactly once`);
      assert.ok(said(id).includes(`echo: ${text}`));
    }
    assert.ok(!shown(id).some((l) => /^steered: (error|garbage)/.test(l)), 'none shown as steered');
  });

  it('an agent without steering: a Steer is queued as today and sent after the turn', async () => {
    const id = await runningTurn('No Steering', 'wait-cancel');
    steer(id, 'just queue it');
    await waitFor(() => queued(id).includes('just queue it'), 'the message queued', 30_000);
    sb().backend.sessions.get(id)?.cancel();
    await waitFor(() => said(id).includes('echo: just queue it'), 'the queued message sent', 60_000);
    assert.strictEqual(requests(`${record}-plain`, '_session/steering', 'just queue it').length, 0);
  });

  // The agent's own turn that ends only by its silence waits the product's real quiet time (30 s): the before()
  // above starts it, so the wait runs beside this file's other tests, and this test, last, checks how it ended.
  it('an agent that answers startedNewTurn and then sends nothing: its turn shows running, then ends after its silence; a prompt goes after it', async () => {
    const id = await silent;
    await waitFor(() => said(id).includes('echo: after the silence'), 'the silent turn to end and the queued message to go', 100_000);
    await idle(id, 'that turn to end');
    assert.deepStrictEqual(shown(id).slice(-5), ['steered: new-turn-mute please', 'end', 'you: after the silence', 'agent: echo: after the silence', 'end']);
  }).timeout(180_000);
});
