// What a steer hands back to the session, against the scripted fake agent: an agent that starts a turn of its
// own with the message (`startedNewTurn`) names the connection that turn runs on (the session follows it there)
// and the chat says so once; no turn running, or an agent that does not steer, leaves the message a prompt.
import * as assert from 'node:assert/strict';
import type { SessionNotification } from '../../../src/acp';
import { steerTurn, type SteerHooks, type SteerTarget } from '../../../src/host/session/steering';
import { CLIENT_INFO, fakeAgent, text, type Harness } from '../acp/helpers';

describe('steer: what the session gets back', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => h?.dispose());

  async function start(args: string[]) {
    h = fakeAgent(args);
    const conn = h.conn;
    await conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await conn.newSession({ cwd: '/work' });
    const said: string[] = [];
    conn.onSessionUpdate((n: SessionNotification) => {
      if (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text') said.push(n.update.content.text);
    });
    const notes: string[] = [];
    const steered: string[] = [];
    const target: SteerTarget = { agentId: 'Steerer', acpSessionId: sessionId, turn: 'running', detached: false, note: (title) => notes.push(title) };
    const hooks = (message: string): SteerHooks => ({
      log: { warn: () => undefined },
      connect: () => Promise.resolve(conn),
      build: () => Promise.resolve({ blocks: [text(message)], dropped: [] }),
      recordSteered: (blocks) => steered.push(...blocks.map((b) => (b.type === 'text' ? b.text : b.type))),
    });
    return { conn, sessionId, said, notes, steered, target, hooks };
  }

  it('startedNewTurn: the result names the connection the agent runs its turn on; said once, shown steered', async () => {
    const s = await start(['--steering']);
    const turn = s.conn.prompt(s.sessionId, [text('steerable')]);
    await waitFor(() => s.said.includes('waiting for a steer'));
    const result = await steerTurn(s.target, s.hooks('new-turn please'));
    assert.equal(result.answer, 'startedNewTurn');
    assert.ok(result.answer === 'startedNewTurn' && result.connection === s.conn, 'the connection the agent answered on');
    assert.deepEqual(s.notes, ['Steerer started a new turn with your message']);
    assert.deepEqual(s.steered, ['new-turn please']);
    assert.equal((await turn).stopReason, 'end_turn', 'the prompt of ours ended');
    await waitFor(() => s.said.includes('new turn: new-turn please'));
  });

  it('no turn running, or an agent that does not steer: promptRequired, nothing said, nothing shown steered', async () => {
    const s = await start(['--steering']);
    assert.deepEqual(await steerTurn({ ...s.target, turn: 'idle' }, s.hooks('too late')), { answer: 'promptRequired' });
    assert.deepEqual(await steerTurn({ ...s.target, turn: 'cancelling' }, s.hooks('stopping')), { answer: 'promptRequired' });
    await h?.dispose();
    const plain = await start([]);
    assert.deepEqual(await steerTurn(plain.target, plain.hooks('no steering here')), { answer: 'promptRequired' });
    assert.deepEqual([...s.notes, ...plain.notes, ...s.steered, ...plain.steered], []);
  });
});

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
