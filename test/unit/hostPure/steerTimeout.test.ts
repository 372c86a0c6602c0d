// A steer the agent never answers, against the scripted fake agent: after the steer's timeout the message is
// not steered (`failed`), the chat says so once with the way forward, and the turn goes on and takes the
// next steer. The host tier checks the chat keeping a failed steer's message; this is the timeout itself,
// with a short one instead of the product's 10 s.
import * as assert from 'node:assert/strict';
import type { SessionNotification } from '../../../src/acp';
import { steerTurn, type SteerHooks, type SteerTarget } from '../../../src/host/session/steering';
import { CLIENT_INFO, fakeAgent, text, type Harness } from '../acp/helpers';

describe('steer: an agent that does not answer in time', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => h?.dispose());

  it('fails after the timeout, says so once with the way forward, and the running turn still takes a steer', async () => {
    h = fakeAgent(['--steering']);
    const conn = h.conn;
    await conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await conn.newSession({ cwd: '/work' });
    const said: string[] = [];
    conn.onSessionUpdate((n: SessionNotification) => {
      if (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text') said.push(n.update.content.text);
    });
    const turn = conn.prompt(sessionId, [text('steerable')]);
    await waitFor(() => said.includes('waiting for a steer'));

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

    assert.deepEqual(await steerTurn(target, hooks('silent please'), 1500), { answer: 'failed' }, 'no turn of the agent to follow');
    assert.deepEqual(notes.map((n) => [n.title, n.severity]), [['Your message was not steered into the turn', 'warning']], 'said once');
    assert.match(notes[0].description, /Steerer did not answer within 2 s/);
    assert.match(notes[0].description, /waits in the queue below and is sent when the turn ends/, 'the way forward');
    assert.equal(warnings.length, 1);
    assert.deepEqual(steered, [], 'not shown as steered');

    assert.deepEqual(await steerTurn(target, hooks('finally'), 10_000), { answer: 'injected' }, 'the turn still runs and takes a steer');
    assert.deepEqual(steered, ['finally']);
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
