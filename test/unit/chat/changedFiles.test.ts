import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ElicitationAnswer, HistoryItem, MentionCandidate } from '../../../src/shared/chatState';
import type { ComposerPrompt, HostToWebviewMessage, PermissionAnswer } from '../../../src/shared/messages';
import type { Transcript } from '../../../src/shared/transcript';
import type { BackendSessionView, ChatBackend, ChatEvent, HostUi, TerminalOutputEvent, TranscriptOpsEvent } from '../../../src/chat/chatBackend';
import { ChatController } from '../../../src/chat/chatController';

function event<T>(em: EventEmitter, name: string): ChatEvent<T> {
  return (listener) => {
    em.on(name, listener);
    return { dispose: () => em.off(name, listener) };
  };
}

class Backend implements ChatBackend {
  em = new EventEmitter();
  calls: unknown[][] = [];
  view: BackendSessionView = {
    sessionId: 's1', agentId: 'A', turn: 'idle',
    capabilities: { image: false, audio: false, embeddedContext: true }, permissions: [], elicitations: [],
    changedFiles: [{ key: 'k1', path: '/ws/a.ts', name: 'a.ts', status: 'modified', added: 2, removed: 1, countsKnown: true, conflict: false, undoable: true }],
  };
  transcript: Transcript = { sessionId: 's1', items: [], commands: [], configOptions: [] };
  getAgents() { return [{ id: 'A', name: 'A', status: 'ready' as const }]; }
  getDefaultAgentId() { return 'A'; }
  getSessions() { return [{ view: this.view, transcript: this.transcript }]; }
  getActiveSessionId() { return 's1'; }
  getHistory(): HistoryItem[] { return []; }
  getTerminals() { return []; }
  async newSession() { return 's1'; }
  selectSession() {}
  async closeSession() {}
  async sendPrompt(_s: string, _p: ComposerPrompt) {}
  async cancel() {}
  async setMode() {}
  async setModel() {}
  async setConfigOption() {}
  answerPermission(_s: string, _r: string, _a: PermissionAnswer) {}
  answerElicitation(_s: string, _r: string, _a: ElicitationAnswer) {}
  dismissError() {}
  async restartAgent() {}
  async authenticate() {}
  async logout() {}
  async refreshHistory() {}
  async openHistory() {}
  async deleteHistory() {}
  async openDiff() {}
  async openTerminal() {}
  async forkSession() { return undefined; }
  async renameSession() {}
  async providerAction() {}
  async openPlanFile() {}
  async changedFileAction(s: string, k: string, a: 'open' | 'keep' | 'undo') { this.calls.push(['changedFileAction', s, k, a]); }
  async changedFilesAll(s: string, a: 'keep' | 'undo') { this.calls.push(['changedFilesAll', s, a]); }
  onDidChangeAgents = event<void>(this.em, 'agents');
  onDidChangeSession = event<BackendSessionView>(this.em, 'session');
  onDidCloseSession = event<string>(this.em, 'close');
  onDidChangeActiveSession = event<string | undefined>(this.em, 'active');
  onDidApplyOps = event<TranscriptOpsEvent>(this.em, 'ops');
  onDidChangeHistory = event<{ loading?: boolean }>(this.em, 'history');
  onDidTerminalOutput = event<TerminalOutputEvent>(this.em, 'terminal');
}

function ui(log: string[]): HostUi {
  return {
    copy: async () => {},
    insertAtCursor: async () => {},
    openInEditor: async () => {},
    openLink: async () => {},
    openLocation: async () => {},
    openResource: async () => {},
    showProtocolLog: async () => {},
    addAgentFromRegistry: async () => {},
    queryMentions: async (): Promise<MentionCandidate[]> => [],
    log: (level, m) => void log.push(`${level}:${m}`),
    showError: (m) => void log.push(`error:${m}`),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

function setup() {
  const backend = new Backend();
  const log: string[] = [];
  const ctl = new ChatController(backend, ui(log), { flushDelayMs: 1 });
  const posted: HostToWebviewMessage[] = [];
  ctl.attach({ postMessage: (m) => { posted.push(JSON.parse(JSON.stringify(m))); return true; } });
  ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
  return { backend, ctl, posted, log };
}

describe('ChatController: changed files', () => {
  it('sends the changed files in the session view', () => {
    const { posted } = setup();
    const init = posted.find((m) => m.type === 'init') as Extract<HostToWebviewMessage, { type: 'init' }>;
    assert.equal(init.snapshot.sessions[0].view.changedFiles?.[0].key, 'k1');
  });

  it('routes per-file and all actions to the backend', async () => {
    const { backend, ctl } = setup();
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'open' });
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'keep' });
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'undo' });
    ctl.handleMessage({ type: 'changedFilesAll', sessionId: 's1', action: 'keep' });
    ctl.handleMessage({ type: 'changedFilesAll', sessionId: 's1', action: 'undo' });
    await tick();
    assert.deepEqual(backend.calls, [
      ['changedFileAction', 's1', 'k1', 'open'],
      ['changedFileAction', 's1', 'k1', 'keep'],
      ['changedFileAction', 's1', 'k1', 'undo'],
      ['changedFilesAll', 's1', 'keep'],
      ['changedFilesAll', 's1', 'undo'],
    ]);
  });

  it('rejects malformed actions from the (untrusted) webview', async () => {
    const { backend, ctl, log } = setup();
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'delete' } as unknown as Parameters<ChatController['handleMessage']>[0]);
    ctl.handleMessage({ type: 'changedFilesAll', sessionId: 's1', action: 'open' } as unknown as Parameters<ChatController['handleMessage']>[0]);
    ctl.handleMessage({ type: 'changedFileAction', sessionId: 's1', key: 7, action: 'keep' } as unknown as Parameters<ChatController['handleMessage']>[0]);
    await tick();
    assert.deepEqual(backend.calls, []);
    // Each one is refused by the message schema and logged with what was wrong.
    assert.equal(log.filter((l) => l.startsWith('warn:') && l.includes('malformed message')).length, 3);
    assert.ok(log.some((l) => l.includes('changedFileAction: key:')), log.join('\n'));
  });
});
