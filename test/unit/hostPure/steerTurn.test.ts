// One steer against the scripted fake agent, and what it hands back to the session: an agent that starts a turn
// of its own with the message (`startedNewTurn`) names the connection that turn runs on (the session follows it
// there) and the chat says so once; no turn running, or an agent that does not steer, leaves the message a
// prompt; an agent that never answers fails the steer after its timeout (a short one here instead of the
// product's 10 s), said once with the way forward, and the turn goes on and takes the next steer.
import * as assert from 'node:assert/strict';
import type { SessionNotification } from '../../../src/acp';
import { steerTurn, type SteerHooks, type SteerTarget } from '../../../src/host/session/turn/steering';
import { CLIENT_INFO, fakeAgent, text, type Harness } from '../acp/helpers';

describe('steer: what the session gets back', function () {
  this.timeout(30_000);
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const h of harnesses.splice(0)) await h.dispose();
  });

  /** A session of the fake agent started with `args`, and a steer's target and hooks that record what it did. */
  async function start(args: string[]) {
    const h = fakeAgent(args);
    harnesses.push(h);
    const conn = h.conn;
    await conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await conn.newSession({ cwd: '/work' });
    const said: string[] = [];
    conn.onSessionUpdate((n: SessionNotification) => {
      if (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text') said.push(n.update.content.text);
    });
    const notes: { title: string; description: string; severity: string }[] = [];
    const warnings: string[] = [];
    const steered: string[] = [];
    const target: SteerTarget = {
      agentId: 'Steerer',
      acpSessionId: sessionId,
      turn: 'running',
      detached: false,
      note: (title, description, severity) => notes.push({ title, description, severity }),
    };
    const hooks = (message: string): SteerHooks => ({
      log: { warn: (line: string) => warnings.push(line) },
      connect: () => Promise.resolve(conn),
      build: () => Promise.resolve({ blocks: [text(message)], dropped: [] }),
      recordSteered: (blocks) => steered.push(...blocks.map((b) => (b.type === 'text' ? b.text : b.type))),
    });
    /** A turn of ours that waits for a steer; `end` is its prompt's answer. */
    const steerable = async () => {
      const end = conn.prompt(sessionId, [text('steerable')]);
      await waitFor(() => said.includes('waiting for a steer'));
      return { end };
    };
    return { conn, said, notes, warnings, steered, target, hooks, steerable };
  }

  it('startedNewTurn: the result names the connection the agent runs its turn on; said once, shown steered', async () => {
    const s = await start(['--steering']);
    const { end: turn } = await s.steerable();
    const result = await steerTurn(s.target, s.hooks('new-turn please'));
    assert.equal(result.answer, 'startedNewTurn');
    assert.ok(result.answer === 'startedNewTurn' && result.connection === s.conn, 'the connection the agent answered on');
    assert.deepEqual(s.notes.map((n) => n.title), ['Steerer started a new turn with your message']);
    assert.deepEqual(s.steered, ['new-turn please']);
    assert.equal((await turn).stopReason, 'end_turn', 'the prompt of ours ended');
    await waitFor(() => s.said.includes('new turn: new-turn please'));
  });

  it('no turn running, or an agent that does not steer: promptRequired, nothing said, nothing shown steered', async () => {
    const s = await start(['--steering']);
    assert.deepEqual(await steerTurn({ ...s.target, turn: 'idle' }, s.hooks('too late')), { answer: 'promptRequired' });
    assert.deepEqual(await steerTurn({ ...s.target, turn: 'cancelling' }, s.hooks('stopping')), { answer: 'promptRequired' });
    const plain = await start([]);
    assert.deepEqual(await steerTurn(plain.target, plain.hooks('no steering here')), { answer: 'promptRequired' });
    assert.deepEqual([...s.notes, ...plain.notes, ...s.steered, ...plain.steered], []);
  });

  it('an agent that does not answer in time: failed, said once with the way forward; the running turn still takes a steer', async () => {
    const s = await start(['--steering']);
    const { end: turn } = await s.steerable();
    assert.deepEqual(await steerTurn(s.target, s.hooks('silent please'), 1500), { answer: 'failed' }, 'no turn of the agent to follow');
    assert.deepEqual(s.notes.map((n) => [n.title, n.severity]), [['Your message was not steered into the turn', 'warning']], 'said once');
    assert.match(s.notes[0].description, /Steerer did not answer within 2 s/);
    assert.match(s.notes[0].description, /waits in the queue below and is sent when the turn ends/, 'the way forward');
    assert.equal(s.warnings.length, 1);
    assert.deepEqual(s.steered, [], 'not shown as steered');

    assert.deepEqual(await steerTurn(s.target, s.hooks('finally'), 10_000), { answer: 'injected' }, 'the turn still runs and takes a steer');
    assert.deepEqual(s.steered, ['finally']);
    assert.equal((await turn).stopReason, 'end_turn');
  });
});

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
