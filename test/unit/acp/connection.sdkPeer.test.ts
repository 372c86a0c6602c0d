// The main flows against an independent agent built on @agentclientprotocol/sdk 2.4.
import * as assert from 'node:assert/strict';
import { NotFoundError, TranscriptState } from '../../../src/acp';
import { agentContent, CLIENT_INFO, SDK_PEER, startAgent, text, type Harness } from './helpers';
import { validateSent } from './schemaValidator';

describe('AcpClientConnection against the SDK-based peer agent', function () {
  this.timeout(20000);
  let h: Harness;

  beforeEach(() => {
    h = startAgent(SDK_PEER);
  });

  afterEach(async () => {
    const problems = validateSent(h.trace);
    await h.dispose();
    assert.deepEqual(problems, []);
  });

  it('initializes, streams a turn, runs tools, and replays it identically through session/load', async () => {
    h.conn.handle('session/request_permission', (p) => ({ outcome: { outcome: 'selected', optionId: p.options[0].optionId } }));
    h.conn.handle('fs/read_text_file', (p) => ({ content: `contents of ${p.path}` }));
    const init = await h.conn.initialize({ clientInfo: CLIENT_INFO });
    assert.equal(init.agentInfo?.name, 'sdk-peer');
    assert.equal(init.agentCapabilities.promptCapabilities.embeddedContext, true);
    const { sessionId, modes } = await h.conn.newSession({ cwd: '/w' });
    assert.equal(modes?.availableModes.length, 2);
    const live = new TranscriptState(sessionId);
    const listening = h.conn.onSessionUpdate((n) => live.apply(n.update));
    for (const prompt of ['hello sdk', 'tools', 'permission', 'read /w/a.txt']) {
      live.recordUserPrompt([text(prompt)]);
      live.recordTurnEnd((await h.conn.prompt(sessionId, [text(prompt)])).stopReason);
    }
    await h.conn.setMode(sessionId, 'code');
    assert.equal(live.transcript.modes?.currentModeId, 'code');
    const said = live.transcript.items.filter((i) => i.kind === 'agent_message').map((i) => (i as { content: Array<{ text: string }> }).content[0].text);
    assert.deepEqual(said, ['sdk: hello sdk', 'chose yes', 'read 20']);
    const tool = live.transcript.items.find((i) => i.kind === 'tool_call') as { status: string; content: unknown[] };
    assert.equal(tool.status, 'completed');
    assert.deepEqual(tool.content, [{ type: 'diff', path: '/w/x.ts', oldText: 'a', newText: 'b' }]);

    listening.dispose();
    const replay = new TranscriptState(sessionId);
    h.conn.onSessionUpdate((n) => replay.apply(n.update));
    await h.conn.loadSession(sessionId, { cwd: '/w' });
    assert.deepEqual(agentContent(replay.transcript).items, agentContent(live.transcript).items);
  });

  it('lists and closes sessions, reports NotFound, and cancels a turn', async () => {
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const a = await h.conn.newSession({ cwd: '/a' });
    await h.conn.newSession({ cwd: '/b' });
    const all = [];
    for await (const s of h.conn.listAllSessions()) all.push(s.cwd);
    assert.deepEqual(all, ['/a', '/b']);
    await h.conn.closeSession(a.sessionId);
    await assert.rejects(h.conn.prompt('missing', [text('x')]), NotFoundError);
    const controller = new AbortController();
    const turn = h.conn.prompt(a.sessionId, [text('wait-cancel')], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    assert.equal((await turn).stopReason, 'cancelled');
  });
});
