import * as assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../../src/shared/messages';
import { ChatController } from '../../../src/chat/chatController';
import { fakeActions, FakeBackend, fakeUi } from './fakeChatBackend';
import { FLUSH_DELAY_MS, tick, useFakeClock } from './tick';


function setup() {
  const backend = new FakeBackend({
    changedFiles: [{ key: 'k1', path: '/ws/a.ts', name: 'a.ts', status: 'modified', added: 2, removed: 1, countsKnown: true, conflict: false, undoable: true }],
  });
  const log: string[] = [];
  const ctl = new ChatController(backend, fakeUi(log), fakeActions(), { flushDelayMs: FLUSH_DELAY_MS });
  const posted: HostToWebviewMessage[] = [];
  ctl.attach({ postMessage: (m) => { posted.push(JSON.parse(JSON.stringify(m))); return true; } });
  ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
  /** The changed-files calls the controller made. */
  const actions = () => backend.calls.filter(([method]) => method.startsWith('changedFile'));
  return { backend, ctl, posted, log, actions };
}

describe('ChatController: changed files', () => {
  useFakeClock();
  it('sends the changed files in the session view', () => {
    const { posted } = setup();
    const init = posted.find((m) => m.type === 'init') as Extract<HostToWebviewMessage, { type: 'init' }>;
    assert.equal(init.snapshot.sessions[0].view.changedFiles?.[0].key, 'k1');
  });

  it('routes per-file and all actions to the backend', async () => {
    const { ctl, actions } = setup();
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'open' });
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'keep' });
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'undo' });
    ctl.handleMessage({ type: 'changedFilesAll', sessionId: 's1', action: 'keep' });
    ctl.handleMessage({ type: 'changedFilesAll', sessionId: 's1', action: 'undo' });
    await tick();
    assert.deepEqual(actions(), [
      ['changedFileAction', 's1', 'k1', 'open'],
      ['changedFileAction', 's1', 'k1', 'keep'],
      ['changedFileAction', 's1', 'k1', 'undo'],
      ['changedFilesAll', 's1', 'keep'],
      ['changedFilesAll', 's1', 'undo'],
    ]);
  });

  it('rejects malformed actions from the (untrusted) webview', async () => {
    const { ctl, log, actions } = setup();
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'delete' } as unknown as Parameters<ChatController['handleMessage']>[0]);
    ctl.handleMessage({ type: 'changedFilesAll', sessionId: 's1', action: 'open' } as unknown as Parameters<ChatController['handleMessage']>[0]);
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 7, action: 'keep' } as unknown as Parameters<ChatController['handleMessage']>[0]);
    await tick();
    assert.deepEqual(actions(), []);
    // Each one is refused by the message schema and logged with what was wrong.
    assert.equal(log.filter((l) => l.startsWith('warn:') && l.includes('malformed message')).length, 3);
    assert.ok(log.some((l) => l.includes('changedFileAction: key:')), log.join('\n'));
  });
});
