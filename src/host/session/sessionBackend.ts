// The chat's backend: real ACP sessions on real agent processes. It owns the agent runtimes (one
// process per agent, shared by its sessions), the sessions and their transcripts and crash recovery,
// and routes the agent's requests to the editor bridges. Sign-in (AgentSignIn) and the history list
// (SessionHistory) live in their own modules.
import * as vscode from 'vscode';
import type { ContentBlock, McpServer } from '../../acp';
import {
  AuthRequiredError,
  toolCallFromRequest,
  type AcpClientConnection,
  type ClientRequestHandlers,
  type NewSessionResult,
  type SessionNotification,
} from '../../acp';
import type { LoginShellEnvironmentCache, ResolvedAgentDefinition } from '../../agents';
import type {
  BackendSessionSnapshot,
  BackendSessionView,
  ChatBackend,
  TerminalOutputEvent as ChatTerminalOutput,
  TranscriptChangeEvent,
} from '../../chat/chatBackend';
import type { AgentView, ChangedFileView, ElicitationAnswer, HistoryItem, TerminalSnapshot } from '../../shared/chatState';
import type { ComposerPrompt, PermissionAnswer } from '../../shared/messages';
import type { TranscriptItem } from '../../shared/transcript';
import type { AgentConfiguration } from './agentConfiguration';
import type { AgentSecrets } from '../auth/agentSecrets';
import type { AuthUi } from '../auth/authFlow';
import { errorMessage, isBridgeError } from '../../acp';
import type { DiffReview } from '../diff';
import type { ElicitationBroker } from '../permissions/elicitationBroker';
import type { FsBridge } from '../fs/fsBridge';
import type { LogChannels } from '../log/logChannels';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { ProtocolLog } from '../log/protocolLog';
import type { AgentState, AgentStatusBar } from './statusBar';
import type { TerminalBridge } from '../terminal/terminalBridge';
import { AgentRuntime } from './agentRuntime';
import { AgentSignIn, type RetryAfterSignIn } from '../auth/agentSignIn';
import { buildPromptBlocks } from './promptBuilder';
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { SessionHistory } from './sessionHistory';
import { SessionRecord, scopedSessionId } from './sessionRecord';
import type { TranscriptStore } from './transcriptStore';
import { agentView, elicitationView, permissionView } from './views';

export interface SessionBackendOptions {
  logs: LogChannels;
  protocolLog: ProtocolLog;
  configuration: AgentConfiguration;
  statusBar: AgentStatusBar;
  fs: FsBridge;
  terminals: TerminalBridge;
  permissions: PermissionBroker;
  elicitations: ElicitationBroker;
  diffReview: DiffReview;
  store: TranscriptStore;
  secrets: AgentSecrets;
  shellEnvironment: LoginShellEnvironmentCache;
  clientVersion: string;
  /** `switchboard.mcpServers` as ACP McpServer entries. */
  mcpServers(): McpServer[];
}

/** The status bar's wording for each agent state. */
const STATUS_BAR_STATE: Record<AgentView['status'], AgentState> = {
  stopped: 'stopped',
  starting: 'starting',
  ready: 'ready',
  crashed: 'crashed',
  auth_required: 'auth',
};

/** How long Stop waits for the agent's answer before ending the turn locally. */
const CANCEL_GRACE_MS = 5000;
/** How long the end of a turn waits for the agent's unanswered fs writes before listing changed files. */
const WRITES_SETTLE_MS = 5000;

/** The absolute paths a tool call names: its locations and the files of its diffs. */
function filesNamedBy(call: Extract<TranscriptItem, { kind: 'tool_call' }>): string[] {
  const paths = [...call.locations.map((l) => l.path), ...call.content.flatMap((c) => (c.type === 'diff' ? [c.path] : []))];
  return [...new Set(paths)].filter((p) => nodePath.isAbsolute(p));
}

/** Resolves when `work` settles or after `ms`, whichever is first; never rejects. */
function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work.then(() => undefined, () => undefined), timeout]).finally(() => clearTimeout(timer));
}

export class SessionBackend implements ChatBackend, vscode.Disposable {
  private readonly runtimes = new Map<string, AgentRuntime>();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly byScopedId = new Map<string, SessionRecord>();
  private readonly terminalIds = new Set<string>();
  private activeKey: string | undefined;
  private readonly signIn: AgentSignIn;
  private readonly disposables: vscode.Disposable[] = [];

  private readonly agentsEmitter = new vscode.EventEmitter<void>();
  private readonly sessionEmitter = new vscode.EventEmitter<BackendSessionView>();
  private readonly closeEmitter = new vscode.EventEmitter<string>();
  private readonly activeEmitter = new vscode.EventEmitter<string | undefined>();
  private readonly transcriptEmitter = new vscode.EventEmitter<TranscriptChangeEvent>();
  private readonly historyEmitter = new vscode.EventEmitter<{ loading?: boolean }>();
  private readonly terminalEmitter = new vscode.EventEmitter<ChatTerminalOutput>();
  readonly onDidChangeAgents = this.agentsEmitter.event;
  readonly onDidChangeSession = this.sessionEmitter.event;
  readonly onDidCloseSession = this.closeEmitter.event;
  readonly onDidChangeActiveSession = this.activeEmitter.event;
  readonly onDidChangeTranscript = this.transcriptEmitter.event;
  readonly onDidChangeHistory = this.historyEmitter.event;
  readonly onDidTerminalOutput = this.terminalEmitter.event;
  private readonly history: SessionHistory;

  constructor(private readonly o: SessionBackendOptions) {
    this.signIn = new AgentSignIn({
      secrets: o.secrets,
      info: (message) => o.logs.main.info(message),
      agentsChanged: () => this.agentsEmitter.fire(),
    });
    this.history = new SessionHistory({
      store: o.store,
      warn: (message) => o.logs.main.warn(message),
      changed: (event) => this.historyEmitter.fire(event),
    });
    this.disposables.push(
      this.agentsEmitter,
      this.sessionEmitter,
      this.closeEmitter,
      this.activeEmitter,
      this.transcriptEmitter,
      this.historyEmitter,
      this.terminalEmitter,
      o.configuration.onDidChange(() => this.applyConfiguration()),
      o.permissions.onDidRequest((p) => this.fireSessionByAcpId(p.sessionId)),
      o.permissions.onDidResolve((d) => {
        // A switchboard.autoApprove rule answered without a card: say so where the tool call shows.
        if (d.via === 'auto' && d.autoApproved) this.noteAutoApproval(d.prompt.sessionId, d.prompt.toolCall.title ?? undefined, d.autoApproved.description);
        this.fireSessionByAcpId(d.prompt.sessionId);
      }),
      o.elicitations.onDidRequest((p) => p.sessionId && this.fireSessionByAcpId(p.sessionId)),
      o.elicitations.onDidResolve((d) => d.prompt.sessionId && this.fireSessionByAcpId(d.prompt.sessionId)),
      o.diffReview.onDidChangeChangedFiles(() => {
        for (const record of this.sessions.values()) this.fireSession(record);
      }),
      o.terminals.onDidOutput((e) => {
        this.terminalIds.add(e.terminalId);
        this.terminalEmitter.fire({ terminalId: e.terminalId, data: e.text });
      }),
      o.terminals.onDidExit((e) => {
        this.terminalIds.add(e.terminalId);
        this.terminalEmitter.fire({ terminalId: e.terminalId, data: '', exitStatus: e.exitStatus });
      }),
    );
  }

  // ---- state ---------------------------------------------------------------------

  getAgents(): AgentView[] {
    return this.o.configuration.snapshot.agents.map((a) =>
      agentView(a.name, this.runtimes.get(a.name), {
        flows: this.signIn.flowsOf(a.name),
        error: this.signIn.failureOf(a.name),
        retry: this.signIn.retryOf(a.name),
      }),
    );
  }

  getDefaultAgentId(): string | undefined {
    const snapshot = this.o.configuration.snapshot;
    if (snapshot.defaultAgent && snapshot.agents.some((a) => a.name === snapshot.defaultAgent)) return snapshot.defaultAgent;
    // Prefer an agent the user configured over the built-in presets.
    return snapshot.agents.find((a) => a.source === 'settings')?.name ?? snapshot.agents[0]?.name;
  }

  getSessions(): BackendSessionSnapshot[] {
    return [...this.sessions.values()].map((r) => ({ view: this.viewOf(r), transcript: r.transcript }));
  }

  getActiveSessionId(): string | undefined {
    return this.activeKey;
  }

  getHistory(): HistoryItem[] {
    return this.history.list({ keys: this.sessions, scopedIds: this.byScopedId });
  }

  getTerminals(): TerminalSnapshot[] {
    const out: TerminalSnapshot[] = [];
    for (const id of this.terminalIds) {
      const t = this.o.terminals.getOutput(id);
      if (!t) continue;
      const snap: TerminalSnapshot = { terminalId: id, output: t.output, truncated: t.truncated };
      if (t.exitStatus) snap.exitStatus = t.exitStatus;
      out.push(snap);
    }
    return out;
  }

  // ---- sessions ----------------------------------------------------------------

  /** `afterSignIn`: when the agent first needs sign-in, runs with the session it opens once signed in. */
  async newSession(agentId?: string, afterSignIn?: (sessionId: string) => void): Promise<string> {
    const name = agentId ?? this.getDefaultAgentId();
    if (!name) throw new Error('No agent is configured. Add one to switchboard.agents.');
    const definition = this.o.configuration.find(name);
    if (!definition) throw new Error(`There is no agent named "${name}" in switchboard.agents or the built-in presets.`);
    const runtime = this.runtimeFor(definition);
    const connection = await runtime.start();
    const cwd = this.workspaceCwd();
    const additionalDirectories = this.additionalDirectories(cwd);
    const result = await this.withAuth(
      name,
      () => connection.newSession({ cwd, additionalDirectories, mcpServers: this.o.mcpServers() }),
      {
        run: async () => {
          const opened = await this.newSession(name);
          afterSignIn?.(opened);
        },
        what: afterSignIn ? 'starts a session and sends your message' : 'starts the session',
      },
    );
    const record = new SessionRecord(randomUUID(), name, result.sessionId, cwd, additionalDirectories);
    this.bind(record, result.sessionId, runtime);
    record.state.applySessionSetup(result);
    this.sessions.set(record.key, record);
    this.setActive(record.key);
    this.fireSession(record);
    this.fireTranscript(record, true);
    await this.applyDefaults(record, definition, connection, result);
    this.o.statusBar.show(name, 'ready');
    return record.key;
  }

  selectSession(sessionId: string): void {
    if (this.sessions.has(sessionId)) this.setActive(sessionId);
  }

  async closeSession(sessionId: string): Promise<void> {
    const record = this.sessions.get(sessionId);
    if (!record) return;
    if (record.turn !== 'idle') await this.cancel(sessionId);
    this.o.permissions.cancelAll(record.scopedId);
    this.o.elicitations.cancelAll(record.scopedId);
    this.o.terminals.disposeSession(record.scopedId);
    await this.saveHistory(record);
    const connection = this.runtimes.get(record.agentId)?.connection;
    if (connection && !record.detached && connection.agent?.agentCapabilities.sessionCapabilities.close) {
      await connection.closeSession(record.acpSessionId).catch((e: unknown) => this.o.logs.main.warn(`session/close failed: ${errorMessage(e)}`));
    }
    this.sessions.delete(sessionId);
    this.byScopedId.delete(record.scopedId);
    this.closeEmitter.fire(sessionId);
    if (this.activeKey === sessionId) this.setActive([...this.sessions.keys()].pop());
    this.persistOpenTabs();
    this.historyEmitter.fire({});
  }

  async sendPrompt(sessionId: string, prompt: ComposerPrompt): Promise<void> {
    // A new message replaces one that was waiting for sign-in in this session: only the latest is sent.
    const agentId = this.sessions.get(sessionId)?.agentId;
    if (agentId) this.signIn.dropRetry(agentId, sessionId);
    return this.startTurn(sessionId, prompt, { shownAlready: false });
  }

  /**
   * `shownAlready`: the prompt is in the transcript from a turn that stopped for sign-in; the retry
   * after signing in sends it again without recording it twice.
   */
  private async startTurn(sessionId: string, prompt: ComposerPrompt, { shownAlready }: { shownAlready: boolean }): Promise<void> {
    const record = this.requireSession(sessionId);
    if (record.turn !== 'idle') throw new Error('The agent is still working on the previous message.');
    record.error = undefined;
    record.turn = 'running';
    record.turnNumber++;
    // Created before anything is awaited so Stop works from the first moment the turn shows as running.
    const abort = (record.abort = new AbortController());
    this.fireSession(record);
    this.o.statusBar.show(record.agentId, 'working');
    let turnWatched = false;
    const firstItem = record.transcript.items.length;
    try {
      const connection = await this.ensureBound(record);
      // Files the agent changes with its own tools (not through fs/write) are caught by the watcher.
      this.o.diffReview.beginTurn(record.scopedId, record.turnId, [record.cwd, ...record.additionalDirectories]);
      turnWatched = true;
      const built = await buildPromptBlocks(prompt, record.capabilities);
      if (built.dropped.length > 0 && !shownAlready) {
        record.state.recordError(`Not sent: ${built.dropped.join(', ')}. ${record.agentId} does not accept images.`);
      }
      if (!shownAlready) record.state.recordUserPrompt(built.blocks);
      this.fireTranscript(record);
      if (abort.signal.aborted) record.state.recordTurnEnd('cancelled');
      else await this.runTurn(record, connection, built.blocks, prompt, abort.signal);
    } catch (error) {
      this.failTurn(record, error);
    } finally {
      if (turnWatched) {
        await settledWithin(this.o.fs.settled(record.scopedId), WRITES_SETTLE_MS);
        await this.recheckReportedFiles(record, firstItem);
        this.o.diffReview.endTurn(record.scopedId);
      }
      record.turn = 'idle';
      record.abort = undefined;
      this.fireSession(record);
      this.fireTranscript(record);
      this.o.statusBar.show(record.agentId, this.runtimes.get(record.agentId)?.status === 'crashed' ? 'crashed' : 'ready');
      void this.saveHistory(record);
    }
  }

  private async runTurn(
    record: SessionRecord,
    connection: AcpClientConnection,
    blocks: ContentBlock[],
    prompt: ComposerPrompt,
    signal: AbortSignal,
  ): Promise<void> {
    const result = await this.withAuth(
      record.agentId,
      () => connection.prompt(record.acpSessionId, blocks, { signal, cancelGraceMs: CANCEL_GRACE_MS, downgradeResources: true }),
      { run: () => this.startTurn(record.key, prompt, { shownAlready: true }), sessionKey: record.key, what: 'sends your message again' },
    );
    record.state.recordTurnEnd(result.stopReason, result.usage);
    if (result.cancelledLocally) {
      record.state.recordError(
        `${record.agentId} did not confirm the cancellation; the turn was ended here.`,
        'If the agent keeps working, use Restart Agent.',
      );
      void vscode.window
        .showWarningMessage(`${record.agentId} did not stop when asked. Restart it?`, 'Restart Agent')
        .then((choice) => choice && this.restartAgent(record.agentId));
    }
  }

  private failTurn(record: SessionRecord, error: unknown): void {
    if (error instanceof AuthRequiredError) {
      record.error = { message: `${record.agentId} needs you to sign in. Choose a sign-in method above; your message is sent again once you have signed in.` };
      return;
    }
    const message = errorMessage(error);
    this.o.logs.main.error(`Turn failed in ${record.key}: ${message}`);
    const runtime = this.runtimes.get(record.agentId);
    if (runtime?.status === 'crashed') {
      // The crash banner has the details; the session says why this message went nowhere.
      record.error = { message: `Not sent: ${message}` };
      return;
    }
    record.state.recordError(message);
    record.error = { message };
  }

  async cancel(sessionId: string): Promise<void> {
    const record = this.sessions.get(sessionId);
    if (!record || record.turn === 'idle') return;
    record.turn = 'cancelling';
    this.fireSession(record);
    this.o.permissions.cancelAll(record.scopedId);
    this.o.elicitations.cancelAll(record.scopedId);
    record.abort?.abort();
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    const record = this.requireSession(sessionId);
    const connection = await this.ensureBound(record);
    await connection.setMode(record.acpSessionId, modeId);
    const modes = record.transcript.modes;
    record.transcript.modes = { currentModeId: modeId, availableModes: modes?.availableModes ?? [] };
    this.fireTranscript(record);
  }

  async setModel(sessionId: string, modelId: string): Promise<void> {
    const record = this.requireSession(sessionId);
    const connection = await this.ensureBound(record);
    await connection.setModel(record.acpSessionId, modelId);
    record.state.setCurrentModel(modelId);
    this.fireTranscript(record);
  }

  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<void> {
    const record = this.requireSession(sessionId);
    const connection = await this.ensureBound(record);
    const result = await connection.setConfigOption(record.acpSessionId, configId, value);
    if (result.configOptions) record.transcript.configOptions = result.configOptions;
    this.fireTranscript(record);
  }

  answerPermission(sessionId: string, requestId: string, answer: PermissionAnswer): void {
    const record = this.sessions.get(sessionId);
    if ('cancelled' in answer) {
      const pending = this.o.permissions.pending(record?.scopedId).find((p) => p.id === requestId);
      // A card dismissed without choosing: the request stays answerable from the notification or diff editor.
      if (pending) this.o.logs.main.info(`Permission card ${requestId} dismissed`);
      return;
    }
    if (!this.o.permissions.resolve(requestId, answer.optionId)) {
      this.o.logs.main.warn(`Permission ${requestId} was already answered`);
    }
  }

  answerElicitation(_sessionId: string, requestId: string, answer: ElicitationAnswer): void {
    const response =
      answer.action === 'accept' ? { action: 'accept' as const, content: answer.content ?? {} } : { action: answer.action };
    this.o.elicitations.resolve(requestId, response as Parameters<ElicitationBroker['resolve']>[1]);
  }

  dismissError(sessionId: string): void {
    const record = this.sessions.get(sessionId);
    if (!record) return;
    record.error = undefined;
    this.fireSession(record);
  }

  async restartAgent(agentId: string): Promise<void> {
    const definition = this.o.configuration.find(agentId);
    if (!definition) throw new Error(`There is no agent named "${agentId}".`);
    const runtime = this.runtimeFor(definition);
    for (const record of this.sessionsOf(agentId)) this.detach(record, 'restart');
    await runtime.restart();
    this.o.statusBar.show(agentId, 'ready');
  }

  async authenticate(agentId: string, methodId: string): Promise<void> {
    const runtime = this.runtimes.get(agentId);
    if (!runtime) throw new Error(`${agentId} did not offer the sign-in method "${methodId}".`);
    await this.signIn.authenticate(runtime, methodId, {
      cwd: this.workspaceCwd(),
      restart: async () => {
        for (const record of this.sessionsOf(agentId)) this.detach(record, 'restart');
        await runtime.restart();
      },
    });
  }

  /** Sign-in prompts (replaceable in tests). */
  get authUi(): AuthUi {
    return this.signIn.ui;
  }

  set authUi(ui: AuthUi) {
    this.signIn.ui = ui;
  }

  /** Logs out where the agent supports it, and forgets the secrets Switchboard kept for it. */
  async logout(agentId: string): Promise<void> {
    const connection = this.runtimes.get(agentId)?.connection;
    if (connection?.agent?.agentCapabilities.auth.logout) await connection.logout();
    await this.o.secrets.clear(agentId);
  }

  // ---- history -----------------------------------------------------------------

  async refreshHistory(): Promise<void> {
    await this.history.refresh(this.runtimes.values(), this.workspaceCwd());
  }

  async openHistory(historyId: string, mode: 'load' | 'resume'): Promise<void> {
    if (historyId.startsWith('local:')) return this.openLocal(historyId.slice('local:'.length));
    const item = this.history.agentEntry(historyId);
    if (!item) throw new Error('That history entry is gone.');
    const definition = this.o.configuration.find(item.agentId);
    if (!definition) throw new Error(`The agent "${item.agentId}" is no longer configured.`);
    const runtime = this.runtimeFor(definition);
    const connection = await runtime.start();
    const cwd = item.cwd ?? this.workspaceCwd();
    const record = new SessionRecord(randomUUID(), item.agentId, item.sessionId, cwd, this.additionalDirectories(cwd));
    record.loading = true;
    this.bind(record, item.sessionId, runtime);
    this.sessions.set(record.key, record);
    this.setActive(record.key);
    this.fireSession(record);
    try {
      const params = { cwd, additionalDirectories: record.additionalDirectories, mcpServers: this.o.mcpServers() };
      const setup = await this.withAuth(item.agentId, () =>
        mode === 'resume' ? connection.resumeSession(item.sessionId, params) : connection.loadSession(item.sessionId, params),
      );
      record.state.applySessionSetup(setup);
    } catch (error) {
      record.error = { message: `Could not ${mode} the session: ${errorMessage(error)}` };
    } finally {
      record.loading = false;
      this.fireSession(record);
      this.fireTranscript(record, true);
    }
  }

  private async openLocal(key: string): Promise<void> {
    if (this.sessions.has(key)) return this.setActive(key);
    const meta = this.o.store.get(key);
    const transcript = meta && (await this.o.store.load(key));
    if (!meta || !transcript) throw new Error('That saved session could not be read.');
    const record = new SessionRecord(key, meta.agentId, meta.acpSessionId, meta.cwd, this.additionalDirectories(meta.cwd), transcript);
    // Not bound to a live agent session yet: the first prompt loads it (or starts a new one).
    record.detached = true;
    this.sessions.set(key, record);
    this.byScopedId.set(record.scopedId, record);
    this.setActive(key);
    this.fireSession(record);
    this.fireTranscript(record, true);
    this.historyEmitter.fire({});
  }

  async deleteHistory(historyId: string): Promise<void> {
    await this.history.delete(historyId, (agentId) => this.runtimes.get(agentId));
  }

  async openDiff(sessionId: string, toolCallId: string, path: string): Promise<void> {
    const record = this.sessions.get(sessionId);
    // A diff still waiting for permission opens as a reviewable diff: Accept / Reject in its title answer it.
    if (record) {
      const prompts = new Set(this.o.permissions.pending(record.scopedId).filter((p) => p.toolCall.toolCallId === toolCallId).map((p) => p.id));
      const pending = this.o.diffReview.pending
        .list()
        .find((d) => d.sessionId === record.scopedId && d.path === path && prompts.has(String(d.requestId).split('#')[0]));
      if (pending) {
        await this.o.diffReview.showPendingPermissionDiff(pending);
        return;
      }
    }
    const item = record?.transcript.items.find((i) => i.kind === 'tool_call' && i.toolCallId === toolCallId);
    const diff = item?.kind === 'tool_call' ? item.content.find((c) => c.type === 'diff' && c.path === path) : undefined;
    if (!diff || diff.type !== 'diff') throw new Error(`No diff for ${path} in that tool call.`);
    await this.o.diffReview.opener.openAcpDiff({ path: diff.path, oldText: diff.oldText, newText: diff.newText }, item?.kind === 'tool_call' ? item.title : undefined);
  }

  async changedFileAction(sessionId: string, key: string, action: 'open' | 'keep' | 'undo'): Promise<void> {
    const record = this.requireSession(sessionId);
    if (!this.o.diffReview.changedFiles().some((f) => f.key === key && f.sessionId === record.scopedId)) {
      throw new Error('That change is no longer pending.');
    }
    if (action === 'open') await this.o.diffReview.opener.openEntryDiff(key);
    else if (action === 'keep') this.o.diffReview.keepFile(key);
    else await this.o.diffReview.undoFile(key);
  }

  async changedFilesAll(sessionId: string, action: 'keep' | 'undo'): Promise<void> {
    const record = this.requireSession(sessionId);
    // Newest turn first, so undoing several turns restores each file to its oldest known content.
    const turns = this.o.diffReview.pendingTurns().filter((t) => t.sessionId === record.scopedId).reverse();
    for (const turn of turns) {
      if (action === 'keep') this.o.diffReview.keepAll(turn);
      else if (!(await this.o.diffReview.undoAll(turn))) break;
    }
  }

  // ---- agent -> client requests --------------------------------------------------

  /** Handlers for every agent->client request; errors from the bridges become JSON-RPC errors. */
  private handlersFor(agentName: string): Partial<ClientRequestHandlers> {
    // The bridges are shared by every agent: they see agent-qualified session ids.
    const wrap =
      <P extends { sessionId?: string }, R>(run: (params: P) => R | Promise<R>) =>
      async (params: P): Promise<R> => {
        try {
          // Request-scoped elicitations (before a session exists) carry no sessionId.
          const scoped = params.sessionId === undefined ? params : { ...params, sessionId: scopedSessionId(agentName, params.sessionId) };
          return await run(scoped);
        } catch (error) {
          if (!isBridgeError(error)) this.o.logs.main.error(`[${agentName}] request failed: ${errorMessage(error)}`);
          throw error;
        }
      };
    const t = this.o.terminals;
    return {
      'fs/read_text_file': wrap((p) => this.o.fs.readTextFile(p)),
      'fs/write_text_file': wrap((p) => this.o.fs.writeTextFile(p)),
      'terminal/create': wrap((p) => t.create(p, { name: this.terminalName(p.sessionId) })),
      'terminal/output': wrap((p) => t.output(p)),
      'terminal/wait_for_exit': wrap((p) => t.waitForExit(p)),
      'terminal/kill': wrap((p) => t.kill(p)),
      'terminal/release': wrap((p) => t.release(p)),
      'session/request_permission': wrap(async (p) => {
        await this.snapshotAskedFiles(p.sessionId, p.toolCall);
        return this.o.permissions.handle(p as Parameters<PermissionBroker['handle']>[0]);
      }),
      'elicitation/create': wrap((p) => this.o.elicitations.handle(p as Parameters<ElicitationBroker['handle']>[0])),
    };
  }

  /** A terminal is named after the tool call that is running when it starts. */
  private terminalName(acpSessionId: string): string | undefined {
    const record = this.byScopedId.get(acpSessionId);
    const items = record?.transcript.items ?? [];
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (item.kind === 'tool_call' && item.status !== 'completed' && item.status !== 'failed') return item.title;
    }
    return undefined;
  }

  private onUpdate(agentName: string, notification: SessionNotification): void {
    const record = this.byScopedId.get(scopedSessionId(agentName, notification.sessionId));
    if (!record) {
      this.o.logs.main.debug(`session/update for unknown session ${notification.sessionId}`);
      return;
    }
    if (record.suppressReplay) return;
    const changed = record.state.apply(notification.update);
    this.fireTranscript(record, false, changed ? [changed.id] : undefined);
    if (changed?.kind === 'tool_call') {
      const update = notification.update as { locations?: unknown; content?: unknown; status?: unknown; _meta?: unknown };
      // Output chunks (_meta only) name no new file: no file reads per chunk.
      if (update.locations || update.content || update.status) void this.noticeReportedFiles(record, changed);
      const first = Array.isArray(update.locations) ? (update.locations[0] as { path: string; line?: number | null } | undefined) : undefined;
      if (first) void this.o.diffReview.follow.followLocation(first.path, first.line ?? undefined).catch(() => undefined);
    }
  }

  /**
   * The files a tool call names (locations, diffs) are checked for changes the agent made by itself: a
   * file seen first is snapshotted (missing counts: it is then new when it appears), a later change is
   * recorded against that snapshot. Never a guess from timestamps: a file the user saved just before the
   * turn must not pass for new, or Undo would delete it.
   */
  private async noticeReportedFiles(record: SessionRecord, item: Extract<TranscriptItem, { kind: 'tool_call' }>): Promise<void> {
    for (const p of filesNamedBy(item)) {
      await this.o.diffReview.tracker
        .recordAgentTouchedFile({ sessionId: record.scopedId, turnId: record.turnId, uri: vscode.Uri.file(p).toString() })
        .catch((e: unknown) => this.o.logs.main.debug(`diff review: could not check ${p}: ${errorMessage(e)}`));
    }
  }

  /**
   * The files a permission request names, as they are before the answer: an agent waits for it before
   * writing, so this is the baseline of a change it then makes itself (a new file included), whatever
   * the timing of its tool-call updates.
   */
  private async snapshotAskedFiles(scopedId: string, toolCall: unknown): Promise<void> {
    const record = this.byScopedId.get(scopedId);
    const call = toolCallFromRequest(toolCall);
    if (!record || !call) return;
    for (const p of filesNamedBy(call)) {
      await this.o.diffReview.tracker
        .snapshot({ sessionId: record.scopedId, turnId: record.turnId, uri: vscode.Uri.file(p).toString() })
        .catch((e: unknown) => this.o.logs.main.debug(`diff review: could not snapshot ${p}: ${errorMessage(e)}`));
    }
  }

  /** At the end of a turn: the files its tool calls named, once more (the watcher's events may come late). */
  private async recheckReportedFiles(record: SessionRecord, fromItem: number): Promise<void> {
    const items = record.transcript.items;
    for (let i = fromItem; i < items.length; i++) {
      const item = items[i];
      if (item.kind === 'tool_call') await this.noticeReportedFiles(record, item);
    }
  }

  // ---- agents --------------------------------------------------------------------

  private runtimeFor(definition: ResolvedAgentDefinition): AgentRuntime {
    let runtime = this.runtimes.get(definition.name);
    if (runtime) {
      runtime.updateDefinition(definition);
      return runtime;
    }
    runtime = new AgentRuntime({
      definition,
      cwd: this.workspaceCwd(),
      stderrLog: this.o.logs.agent(definition.name),
      log: this.o.logs.main,
      trace: this.o.protocolLog.hookFor(definition.name),
      shellEnvironment: this.o.shellEnvironment,
      getSecretEnv: () => this.o.secrets.environment(definition.name),
      handlers: this.handlersFor(definition.name),
      clientVersion: this.o.clientVersion,
      onConnection: (connection) => {
        const sub = connection.onSessionUpdate((n) => this.onUpdate(definition.name, n));
        return { dispose: () => sub.dispose() };
      },
    });
    const r = runtime;
    this.disposables.push(
      runtime,
      runtime.onDidChange(() => {
        this.agentsEmitter.fire();
        this.o.statusBar.show(r.name, STATUS_BAR_STATE[r.status]);
      }),
      runtime.onDidExit((e) => {
        if (e.crashed) this.onAgentCrash(r);
      }),
    );
    this.runtimes.set(definition.name, runtime);
    return runtime;
  }

  /** Transcripts stay; the turn ends; pending requests are answered cancelled; terminals die with the agent. */
  private onAgentCrash(runtime: AgentRuntime): void {
    for (const record of this.sessionsOf(runtime.name)) {
      if (record.turn !== 'idle') {
        record.state.recordError(runtime.crash?.message ?? `${runtime.name} stopped unexpectedly.`, runtime.crash?.stderrTail.slice(-10).join('\n'));
        record.abort?.abort();
      }
      this.detach(record, 'crash');
      this.fireSession(record);
      this.fireTranscript(record);
    }
    const tail = runtime.crash?.stderrTail.slice(-3).join('\n');
    void vscode.window
      .showErrorMessage(`${runtime.crash?.message ?? `${runtime.name} crashed.`}${tail ? `\n${tail}` : ''}`, 'Restart Agent', 'Show Log')
      .then((choice) => {
        if (choice === 'Restart Agent') void this.restartAgent(runtime.name).catch((e: unknown) => void vscode.window.showErrorMessage(errorMessage(e)));
        if (choice === 'Show Log') this.o.logs.agent(runtime.name).show(true);
      });
  }

  /** The session's agent process is gone (crash or restart): forget the binding, cancel what waits on it. */
  private detach(record: SessionRecord, _why: 'crash' | 'restart'): void {
    this.o.permissions.cancelAll(record.scopedId);
    this.o.elicitations.cancelAll(record.scopedId);
    this.o.terminals.disposeSession(record.scopedId);
    record.detached = true;
  }

  /** Binds a detached session again: session/load when the agent can (the replay is skipped), else a new session. */
  private async ensureBound(record: SessionRecord): Promise<AcpClientConnection> {
    const definition = this.o.configuration.find(record.agentId);
    if (!definition) throw new Error(`The agent "${record.agentId}" is no longer configured.`);
    const runtime = this.runtimeFor(definition);
    const connection = await runtime.start();
    if (!record.detached) return connection;
    const params = { cwd: record.cwd, additionalDirectories: record.additionalDirectories, mcpServers: this.o.mcpServers() };
    if (connection.agent?.agentCapabilities.loadSession) {
      record.suppressReplay = true;
      try {
        const setup = await this.withAuth(record.agentId, () => connection.loadSession(record.acpSessionId, params));
        record.state.applySessionSetup(setup);
        this.bind(record, record.acpSessionId, runtime);
        return connection;
      } catch (error) {
        this.o.logs.main.warn(`Could not load session ${record.acpSessionId} again: ${errorMessage(error)}; starting a new one`);
      } finally {
        record.suppressReplay = false;
      }
    }
    const result: NewSessionResult = await this.withAuth(record.agentId, () => connection.newSession(params));
    record.state.applySessionSetup(result);
    record.state.recordError(`${record.agentId} started a new session: it does not remember the messages above.`);
    this.bind(record, result.sessionId, runtime);
    return connection;
  }

  private bind(record: SessionRecord, acpSessionId: string, runtime: AgentRuntime): void {
    this.byScopedId.delete(record.scopedId);
    record.acpSessionId = acpSessionId;
    record.detached = false;
    this.byScopedId.set(record.scopedId, record);
    const caps = runtime.agentInfo?.agentCapabilities;
    record.capabilities = {
      image: Boolean(caps?.promptCapabilities.image),
      audio: Boolean(caps?.promptCapabilities.audio),
      embeddedContext: Boolean(caps?.promptCapabilities.embeddedContext),
      loadSession: Boolean(caps?.loadSession),
    };
  }

  /** Mode, model and config options from the agent's settings entry, applied after session/new. */
  private async applyDefaults(record: SessionRecord, definition: ResolvedAgentDefinition, connection: AcpClientConnection, setup: NewSessionResult): Promise<void> {
    const tryIt = async (what: string, run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (error) {
        const message = `Could not apply ${what} from switchboard.agents["${definition.name}"]: ${errorMessage(error)}`;
        this.o.logs.main.warn(message);
        record.state.recordError(message);
      }
    };
    if (definition.defaultMode && setup.modes?.currentModeId !== definition.defaultMode) {
      await tryIt(`defaultMode "${definition.defaultMode}"`, () => this.setMode(record.key, definition.defaultMode!));
    }
    if (definition.defaultModel) {
      const modelOption = record.transcript.configOptions.find((o) => o.category === 'model' && o.kind === 'select');
      if (modelOption) {
        if (modelOption.currentValue !== definition.defaultModel) {
          await tryIt(`defaultModel "${definition.defaultModel}"`, () => this.setConfigOption(record.key, modelOption.id, definition.defaultModel!));
        }
      } else if (setup.models && setup.models.currentModelId !== definition.defaultModel) {
        await tryIt(`defaultModel "${definition.defaultModel}"`, () => this.setModel(record.key, definition.defaultModel!));
      }
    }
    for (const [id, value] of Object.entries(definition.defaultConfigOptions ?? {})) {
      await tryIt(`config option "${id}"`, () => connection.setConfigOption(record.acpSessionId, id, value).then((r) => {
        if (r.configOptions) record.transcript.configOptions = r.configOptions;
      }));
    }
    this.fireTranscript(record);
  }

  /** Runs an agent request; on -32000 the agent waits for sign-in, then `retry` runs (see AgentSignIn). */
  private withAuth<T>(agentId: string, request: () => Promise<T>, retry?: RetryAfterSignIn): Promise<T> {
    return this.signIn.run(this.runtimes.get(agentId), agentId, request, retry);
  }

  private applyConfiguration(): void {
    const agents = this.o.configuration.snapshot.agents;
    for (const [name, runtime] of this.runtimes) {
      const definition = agents.find((a) => a.name === name);
      if (definition) runtime.updateDefinition(definition);
    }
    this.agentsEmitter.fire();
  }

  // ---- helpers -------------------------------------------------------------------

  private sessionsOf(agentId: string): SessionRecord[] {
    return [...this.sessions.values()].filter((r) => r.agentId === agentId);
  }

  private requireSession(key: string): SessionRecord {
    const record = this.sessions.get(key);
    if (!record) throw new Error('That session is closed.');
    return record;
  }

  /** The session's folder: the first workspace folder (agents get the others as additionalDirectories). */
  workspaceCwd(): string {
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    return folder?.uri.fsPath ?? os.homedir();
  }

  private additionalDirectories(cwd: string): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file' && f.uri.fsPath !== cwd).map((f) => f.uri.fsPath);
  }

  /** Session folders for the fs and terminal bridges, by the agent's session id. */
  rootsOf(scopedId: string): { cwd: string; additionalDirectories: string[] } | undefined {
    const record = this.byScopedId.get(scopedId);
    return record ? { cwd: record.cwd, additionalDirectories: record.additionalDirectories } : undefined;
  }

  /** A turn's label in the Changed Files tree: the session's title and the turn's number. */
  describeTurn(turn: { sessionId: string; turnId: string }): string | undefined {
    const record = this.byScopedId.get(turn.sessionId);
    const number = turn.turnId.slice(turn.turnId.lastIndexOf('#') + 1);
    if (!record) return /^\d+$/.test(number) ? `Turn ${number}` : undefined;
    return `${record.title} · turn ${number}`;
  }

  turnIdOf(acpSessionId: string): string {
    return this.byScopedId.get(acpSessionId)?.turnId ?? 'default';
  }

  agentNameOf(acpSessionId: string): string | undefined {
    return this.byScopedId.get(acpSessionId)?.agentId;
  }

  toolKindOf(acpSessionId: string, toolCallId: string): string | undefined {
    const item = this.byScopedId.get(acpSessionId)?.transcript.items.find((i) => i.kind === 'tool_call' && i.toolCallId === toolCallId);
    return item?.kind === 'tool_call' ? (item.rawKind ?? item.toolKind) : undefined;
  }

  /** The chat tab of an agent session, to route a permission prompt to the right card. */
  sessionKeyOf(acpSessionId: string): string | undefined {
    return this.byScopedId.get(acpSessionId)?.key;
  }

  get activeSession(): SessionRecord | undefined {
    return this.activeKey ? this.sessions.get(this.activeKey) : undefined;
  }

  private viewOf(record: SessionRecord): BackendSessionView {
    const view: BackendSessionView = {
      sessionId: record.key,
      agentId: record.agentId,
      title: record.title,
      turn: record.turn,
      capabilities: record.capabilities,
      permissions: this.o.permissions.pending(record.scopedId).map(permissionView),
      elicitations: this.o.elicitations.pending(record.scopedId).map(elicitationView),
    };
    if (record.error) view.error = record.error;
    if (record.loading) view.loading = true;
    const changed = this.changedFilesOf(record);
    if (changed.length > 0) view.changedFiles = changed;
    return view;
  }

  /** The session's changed files still pending review (all its turns; the tree view shows the same). */
  private changedFilesOf(record: SessionRecord): ChangedFileView[] {
    return this.o.diffReview
      .changedFiles()
      .filter((f) => f.sessionId === record.scopedId)
      .map((f) => {
        const v: ChangedFileView = {
          key: f.key,
          path: f.path,
          name: vscode.workspace.asRelativePath(f.path, false),
          status: f.status,
          added: f.added,
          removed: f.removed,
          countsKnown: f.countsKnown,
          conflict: f.conflict,
          undoable: f.undoable,
        };
        if (f.note) v.note = f.note;
        return v;
      });
  }

  private setActive(key: string | undefined): void {
    this.activeKey = key;
    void vscode.commands.executeCommand('setContext', 'switchboard.turnRunning', this.activeSession ? this.activeSession.turn !== 'idle' : false);
    this.activeEmitter.fire(key);
  }

  private fireSession(record: SessionRecord): void {
    if (!this.sessions.has(record.key)) return;
    if (record.key === this.activeKey) void vscode.commands.executeCommand('setContext', 'switchboard.turnRunning', record.turn !== 'idle');
    this.sessionEmitter.fire(this.viewOf(record));
  }

  private noteAutoApproval(scopedId: string, toolTitle: string | undefined, description: string): void {
    const record = this.byScopedId.get(scopedId);
    if (!record) return;
    const changed = record.state.apply({
      sessionUpdate: 'notice',
      severity: 'info',
      title: toolTitle ? `${toolTitle}: allowed without asking` : 'Allowed without asking',
      description,
    });
    this.fireTranscript(record, false, changed ? [changed.id] : undefined);
  }

  private fireSessionByAcpId(acpSessionId: string): void {
    const record = this.byScopedId.get(acpSessionId);
    if (record) this.fireSession(record);
  }

  private fireTranscript(record: SessionRecord, reset = false, changedItemIds?: string[]): void {
    if (!this.sessions.has(record.key)) return;
    const event: TranscriptChangeEvent = { sessionId: record.key, transcript: record.transcript, reset };
    if (changedItemIds) event.changedItemIds = changedItemIds;
    this.transcriptEmitter.fire(event);
  }

  /** Reopens the tabs that were open before a window reload, from the local transcript store. */
  async restoreOpenTabs(): Promise<void> {
    const { keys, active } = this.o.store.openTabs();
    for (const key of keys) {
      if (this.sessions.has(key) || !this.o.store.get(key)) continue;
      await this.openLocal(key).catch((e: unknown) => this.o.logs.main.warn(`Could not reopen session ${key}: ${errorMessage(e)}`));
    }
    if (active && this.sessions.has(active)) this.setActive(active);
  }

  private persistOpenTabs(): void {
    // Only sessions with a stored transcript can come back.
    const keys = [...this.sessions.values()].filter((r) => this.o.store.get(r.key)).map((r) => r.key);
    void this.o.store.setOpenTabs(keys, this.activeKey);
  }

  private async saveHistory(record: SessionRecord): Promise<void> {
    if (!record.transcript.items.some((i) => i.kind === 'user_message')) return;
    await this.o.store.save(
      { key: record.key, agentId: record.agentId, acpSessionId: record.acpSessionId, title: record.title, cwd: record.cwd, updatedAt: new Date().toISOString() },
      record.transcript,
    );
    this.persistOpenTabs();
  }

  /** Saves every open transcript (window closing). */
  async saveAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((r) => this.saveHistory(r)));
  }

  async dispose(): Promise<void> {
    await this.saveAll().catch(() => undefined);
    this.o.permissions.cancelAllPending();
    this.o.elicitations.cancelAllPending();
    await Promise.all([...this.runtimes.values()].map((r) => r.stop().catch(() => undefined)));
    for (const d of this.disposables) d.dispose();
  }
}
