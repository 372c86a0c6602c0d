// The one fake ChatBackend and HostUi for the chat's unit tests: one session 's1' of agent 'A' whose
// transcript is a real TranscriptState (say/update apply updates as a session does and emit the ops), a log
// of every call the controller makes, and a prompt that runs until the test finishes the turn.
import { EventEmitter } from 'node:events';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import type { BackendSessionView, ChatBackend, ChatEvent, HostUi, TerminalOutputEvent, TranscriptOpsEvent } from '../../../src/chat/chatBackend';
import type { AgentView, ElicitationAnswer, HistoryItem, MentionCandidate, ProviderAction, TerminalSnapshot } from '../../../src/shared/chatState';
import type { ComposerPrompt, PermissionAnswer } from '../../../src/shared/messages';
import type { Transcript } from '../../../src/shared/transcript';

function event<T>(em: EventEmitter, name: string): ChatEvent<T> {
  return (listener) => {
    em.on(name, listener);
    return { dispose: () => em.off(name, listener) };
  };
}

export class FakeBackend implements ChatBackend {
  em = new EventEmitter();
  /** Every call the controller made, as [method, ...arguments]. */
  calls: [string, ...unknown[]][] = [];
  agents: AgentView[] = [{ id: 'A', name: 'A', status: 'ready' }];
  view: BackendSessionView = {
    sessionId: 's1', agentId: 'A', turn: 'idle',
    capabilities: { image: false, audio: false, embeddedContext: true }, permissions: [], elicitations: [],
  };
  state = new TranscriptState('s1');
  get transcript(): Transcript { return this.state.transcript; }
  terminals: TerminalSnapshot[] = [];
  turnResolvers: (() => void)[] = [];

  constructor(view: Partial<BackendSessionView> = {}) {
    this.view = { ...this.view, ...view };
  }

  getAgents() { return this.agents; }
  getDefaultAgentId() { return 'A'; }
  getSessions() { return [{ view: this.view, transcript: this.transcript }]; }
  getActiveSessionId() { return 's1'; }
  getHistory(): HistoryItem[] { return []; }
  getTerminals() { return this.terminals; }
  async newSession(agentId?: string) { this.calls.push(['newSession', agentId]); return 's1'; }
  selectSession(id: string) { this.calls.push(['selectSession', id]); }
  async closeSession(id: string) { this.calls.push(['closeSession', id]); }
  sendPrompt(sessionId: string, prompt: ComposerPrompt): Promise<void> {
    this.calls.push(['sendPrompt', sessionId, prompt.text]);
    this.setTurn('running');
    return new Promise((resolve) => this.turnResolvers.push(() => { this.setTurn('idle'); resolve(); }));
  }
  async cancel(id: string) { this.calls.push(['cancel', id]); }
  async cancelSubagent(id: string, child: string) { this.calls.push(['cancelSubagent', id, child]); }
  async setMode(s: string, m: string) { this.calls.push(['setMode', s, m]); }
  async setModel(s: string, m: string) { this.calls.push(['setModel', s, m]); }
  async setConfigOption(s: string, c: string, v: string | boolean) { this.calls.push(['setConfigOption', s, c, v]); }
  answerPermission(s: string, r: string, a: PermissionAnswer) { this.calls.push(['answerPermission', s, r, a]); }
  answerElicitation(s: string, r: string, a: ElicitationAnswer) { this.calls.push(['answerElicitation', s, r, a]); }
  dismissError(s: string) { this.calls.push(['dismissError', s]); }
  async restartAgent(a: string) { this.calls.push(['restartAgent', a]); }
  async authenticate(a: string, m: string) { this.calls.push(['authenticate', a, m]); }
  async logout(a: string) { this.calls.push(['logout', a]); }
  async refreshHistory() { this.calls.push(['refreshHistory']); }
  async openHistory(id: string, mode: 'load' | 'resume') { this.calls.push(['openHistory', id, mode]); }
  async deleteHistory(id: string) { this.calls.push(['deleteHistory', id]); }
  async openDiff(s: string, t: string, p: string) { this.calls.push(['openDiff', s, t, p]); }
  async openTerminal(s: string, t: string) { this.calls.push(['openTerminal', s, t]); }
  async changedFileAction(s: string, k: string, a: 'open' | 'keep' | 'undo') { this.calls.push(['changedFileAction', s, k, a]); }
  async changedFilesAll(s: string, a: 'keep' | 'undo') { this.calls.push(['changedFilesAll', s, a]); }
  async forkSession(s: string, from?: string) { this.calls.push(['forkSession', s, from]); return 's2'; }
  async renameSession(s: string, title: string) { this.calls.push(['renameSession', s, title]); }
  async providerAction(a: string, action: ProviderAction) { this.calls.push(['providerAction', a, action]); }
  async openPlanFile(s: string, p: string) { this.calls.push(['openPlanFile', s, p]); }
  onDidChangeAgents = event<void>(this.em, 'agents');
  onDidChangeSession = event<BackendSessionView>(this.em, 'session');
  onDidCloseSession = event<string>(this.em, 'close');
  onDidChangeActiveSession = event<string | undefined>(this.em, 'active');
  onDidApplyOps = event<TranscriptOpsEvent>(this.em, 'ops');
  onDidChangeHistory = event<{ loading?: boolean }>(this.em, 'history');
  onDidTerminalOutput = event<TerminalOutputEvent>(this.em, 'terminal');
  onDidRefusePrompt = event<{ sessionId: string; prompt: ComposerPrompt }>(this.em, 'refused');

  setTurn(turn: BackendSessionView['turn']) {
    this.view = { ...this.view, turn };
    this.em.emit('session', this.view);
  }
  /** The session's reducer applies an update; its ops go out as the real session's do. */
  update(raw: Record<string, unknown>) {
    const ops = this.state.apply(parseSessionUpdate(raw));
    if (ops.length) this.em.emit('ops', { sessionId: 's1', ops });
  }
  say(text: string, messageId = 'm1') {
    this.update({ sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } });
  }
  finishTurn() { this.turnResolvers.shift()?.(); }
}

/** A HostUi that logs what it was asked to do as `what:argument` lines. */
export function fakeUi(log: string[] = []): HostUi {
  return {
    copy: async (t) => void log.push(`copy:${t}`),
    insertAtCursor: async (t) => void log.push(`insert:${t}`),
    openInEditor: async (t) => void log.push(`open:${t}`),
    openLink: async (h) => void log.push(`link:${h}`),
    openLocation: async (p, l) => void log.push(`loc:${p}:${l}`),
    openResource: async (u) => void log.push(`res:${u}`),
    showProtocolLog: async () => void log.push('protocolLog'),
    addAgentFromRegistry: async () => void log.push('addAgentFromRegistry'),
    queryMentions: async (q): Promise<MentionCandidate[]> => [{ kind: 'file', uri: 'file:///a.ts', label: `a-${q}.ts` }],
    log: (level, m) => void log.push(`${level}:${m}`),
    showError: (m) => void log.push(`error:${m}`),
  };
}
