// The one fake ChatBackend, HostUi and HostActions for the chat's unit tests: one session 's1' of agent 'A' whose
// transcript is a real TranscriptState (say/update apply updates as a session does and emit the ops), a log
// of every call the controller makes (as [action, tab or agent, ...arguments]), and a prompt that runs until
// the test finishes the turn. Any tab the test announced answers as a session of its own.
import { EventEmitter } from 'node:events';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import type {
  AgentsPort,
  BackendSessionView,
  ChatBackend,
  ChatEvent,
  ChatSession,
  CheckpointsPort,
  FilesPort,
  HistoryPort,
  HostActions,
  HostUi,
  LifecyclePort,
  MentionsPort,
  PromptOutcome,
  ProvidersPort,
  RequestsPort,
  SessionsPort,
  TerminalOutputEvent,
  TerminalsPort,
  TranscriptOpsEvent,
} from '../../../src/chat/chatBackend';
import type { AgentView, MentionCandidate, TerminalSnapshot } from '../../../src/shared/chatState';
import type { ComposerPrompt } from '../../../src/shared/messages';
import type { Transcript } from '../../../src/shared/transcript';

function event<T>(em: EventEmitter, name: string): ChatEvent<T> {
  return (listener) => {
    em.on(name, listener);
    return { dispose: () => em.off(name, listener) };
  };
}

export class FakeBackend implements ChatBackend {
  em = new EventEmitter();
  /** Every call the controller made, as [action, ...arguments]. */
  calls: [string, ...unknown[]][] = [];
  agentViews: AgentView[] = [{ id: 'A', name: 'A', status: 'ready' }];
  view: BackendSessionView = {
    sessionId: 's1', agentId: 'A', turn: 'idle',
    capabilities: { image: false, audio: false, embeddedContext: true }, permissions: [], elicitations: [],
  };
  state = new TranscriptState('s1');
  get transcript(): Transcript { return this.state.transcript; }
  terminalSnapshots: TerminalSnapshot[] = [];
  turnResolvers: (() => void)[] = [];
  /** How the next turns end (a turn stops for sign-in when this says so). */
  outcomes: PromptOutcome[] = [];

  constructor(view: Partial<BackendSessionView> = {}) {
    this.view = { ...this.view, ...view };
  }

  /** The session of a tab, logging what the chat does to it. */
  session(tabId: string): ChatSession {
    const log = (...call: [string, ...unknown[]]) => void this.calls.push(call);
    return {
      agentId: this.view.agentId,
      transcript: this.transcript,
      failedPrompt: undefined,
      prompt: (prompt: ComposerPrompt, options) => {
        log('sendPrompt', tabId, prompt.text, ...(options?.shownAlready ? ['shownAlready'] : []));
        this.setTurn('running');
        const outcome = this.outcomes.shift() ?? { signInRequired: false };
        return new Promise((resolve) => this.turnResolvers.push(() => { this.setTurn('idle'); resolve(outcome); }));
      },
      steer: async (prompt) => { log('steer', tabId, prompt.text); return 'promptRequired'; },
      cancel: () => log('cancel', tabId),
      cancelSubagent: async (child) => log('cancelSubagent', tabId, child),
      setMode: async (m) => log('setMode', tabId, m),
      setModel: async (m) => log('setModel', tabId, m),
      setConfigOption: async (c, v) => log('setConfigOption', tabId, c, v),
      dismissError: () => log('dismissError', tabId),
    };
  }

  sessions: SessionsPort = {
    get: (tabId) => this.session(tabId),
    snapshots: () => [{ view: this.view, transcript: this.transcript }],
    activeTabId: () => 's1',
    select: (tabId) => void this.calls.push(['selectSession', tabId]),
    onDidChangeSession: event<BackendSessionView>(this.em, 'session'),
    onDidCloseSession: event<string>(this.em, 'close'),
    onDidChangeActiveSession: event<string | undefined>(this.em, 'active'),
    onDidApplyOps: event<TranscriptOpsEvent>(this.em, 'ops'),
    onDidRefusePrompt: event<{ tabId: string; prompt: ComposerPrompt }>(this.em, 'refused'),
  };
  lifecycle: LifecyclePort = {
    open: async (agentId) => { this.calls.push(['newSession', agentId]); return 's1'; },
    close: async (tabId) => void this.calls.push(['closeSession', tabId]),
    fork: async (tabId, from) => { this.calls.push(['forkSession', tabId, from]); return 's2'; },
    rename: async (tabId, title) => void this.calls.push(['renameSession', tabId, title]),
    openHistory: async (id, mode) => void this.calls.push(['openHistory', id, mode]),
  };
  agents: AgentsPort = {
    views: () => this.agentViews,
    defaultAgentId: () => 'A',
    restart: async (a) => void this.calls.push(['restartAgent', a]),
    authenticate: async (a, m) => void this.calls.push(['authenticate', a, m]),
    logout: async (a) => void this.calls.push(['logout', a]),
    onDidChange: event<void>(this.em, 'agents'),
    onDidSignIn: event<string>(this.em, 'signIn'),
  };
  providers: ProvidersPort = { run: async (a, action) => void this.calls.push(['providerAction', a, action]) };
  history: HistoryPort = {
    list: () => [],
    refresh: async () => void this.calls.push(['refreshHistory']),
    delete: async (id) => void this.calls.push(['deleteHistory', id]),
    onDidChange: event<{ loading?: boolean }>(this.em, 'history'),
  };
  terminals: TerminalsPort = {
    snapshots: () => this.terminalSnapshots,
    reveal: (tabId, terminalId) => void this.calls.push(['openTerminal', tabId, terminalId]),
    onDidOutput: event<TerminalOutputEvent>(this.em, 'terminal'),
  };
  files: FilesPort = {
    openDiff: async (tabId, toolCallId, path) => void this.calls.push(['openDiff', tabId, toolCallId, path]),
    fileAction: async (tabId, key, action) => void this.calls.push(['changedFileAction', tabId, key, action]),
    allFiles: async (tabId, action) => void this.calls.push(['changedFilesAll', tabId, action]),
    openPlanFile: async (tabId, planId) => void this.calls.push(['openPlanFile', tabId, planId]),
  };
  checkpoints: CheckpointsPort = {
    act: async (tabId, itemId, action) => {
      this.calls.push(['checkpoint', tabId, itemId, action]);
      return { phase: 'loading' };
    },
  };
  requests: RequestsPort = {
    answerPermission: (requestId, answer) => void this.calls.push(['answerPermission', requestId, answer]),
    answerElicitation: (requestId, answer) => void this.calls.push(['answerElicitation', requestId, answer]),
  };
  mentions: MentionsPort = {
    query: async (q): Promise<MentionCandidate[]> => [{ kind: 'file', uri: 'file:///a.ts', label: `a-${q}.ts` }],
  };

  setTurn(turn: BackendSessionView['turn']) {
    this.view = { ...this.view, turn };
    this.em.emit('session', this.view);
  }
  /** The session's reducer applies an update; its ops go out as the real session's do. */
  update(raw: Record<string, unknown>) {
    const ops = this.state.apply(parseSessionUpdate(raw));
    if (ops.length) this.em.emit('ops', { tabId: 's1', ops });
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
    log: (level, m) => void log.push(`${level}:${m}`),
    showError: (m) => void log.push(`error:${m}`),
  };
}

/** HostActions that log what the chat asked of the host's own features, with the arguments as given. */
export function fakeActions(log: unknown[][] = []): HostActions {
  return {
    openMention: async (request) => void log.push(['openMention', request]),
    showProtocolLog: () => void log.push(['showProtocolLog']),
    addAgentFromRegistry: async () => void log.push(['addAgentFromRegistry']),
  };
}
