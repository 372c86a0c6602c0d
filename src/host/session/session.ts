// One chat session: its record, its transcript and its turn. The only writer of the transcript: every
// change goes through the reducer and leaves as the ops it applied (onDidApplyOps), which the chat sends
// to the webview as they are. `key` is stable for the tab's life; the agent session id may change when
// the agent restarts and the session is loaded again (or replaced by a new one).
import * as vscode from 'vscode';
import {
  AuthRequiredError,
  TranscriptState,
  composerCapabilities,
  type AcpClientConnection,
  type ContentBlock,
  type InitializeResult,
  type LoadSessionResult,
  type SessionUpdate,
} from '../../acp';
import type { InstructionsView, SessionCapabilities, SessionError, TurnState } from '../../shared/chatState';
import type { ComposerPrompt } from '../../shared/messages';
import type { StopReason, SubagentItem, Transcript, TurnUsage } from '../../shared/transcript';
import type { TranscriptOp } from '../../shared/transcriptOps';
import type { ChatSession, PromptOutcome, SteerAnswer } from '../../chat/chatBackend';
import type { SessionHost } from './sessionHost';
import { sessionTitle } from './sessionTitle';
import { TurnBookkeeping } from './turn/turnBookkeeping';
import { TurnCycle } from './turn/turnCycle';
import { TurnErrors } from './turn/turnErrors';
import type { ReviewTurn } from './turn/turnFiles';

// Reading mentions loads with the first message, not with the chat.
const loadPromptBuilder = () => import('./turn/promptBuilder');

/** How long Stop waits for the agent's answer before ending the turn locally. */
const CANCEL_GRACE_MS = 5000;

export class Session implements ChatSession, vscode.Disposable {
  acpSessionId: string;
  loading = false;
  /** The agent process this session lived in is gone: the next prompt binds it again. */
  detached = false;
  /** Updates arriving while this is set are a replay of what the transcript already shows. */
  suppressReplay = false;
  capabilities: SessionCapabilities = { image: false, audio: false, embeddedContext: false };
  /** The standing instructions as this session got them (shown in its header). */
  instructions: InstructionsView | undefined;
  private readonly state: TranscriptState;
  /** Its turns from start to end, the agent's own included: the turn's state. */
  private readonly cycle: TurnCycle;
  /** The checkpoint a turn starts from, and its changed files and checkpoint after its end. */
  private readonly bookkeeping: TurnBookkeeping;
  /** The banner's error and what its Retry sends again. */
  private readonly errors: TurnErrors;
  private readonly opsEmitter = new vscode.EventEmitter<TranscriptOp[]>();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** The transcript changed: the ops the reducer applied, in order. */
  readonly onDidApplyOps = this.opsEmitter.event;
  /** Anything else the chat shows of the session changed (turn, error, capabilities...). */
  readonly onDidChange = this.changeEmitter.event;
  private readonly refusedEmitter = new vscode.EventEmitter<ComposerPrompt>();
  /** A message was not sent because of its mentions: the user gets it back to change. */
  readonly onDidRefusePrompt = this.refusedEmitter.event;

  constructor(
    private readonly host: SessionHost,
    readonly key: string,
    readonly agentId: string,
    acpSessionId: string,
    readonly cwd: string,
    readonly additionalDirectories: string[],
    transcript?: Transcript,
  ) {
    this.acpSessionId = acpSessionId;
    this.state = new TranscriptState(transcript ?? acpSessionId);
    this.bookkeeping = new TurnBookkeeping(host, this);
    this.errors = new TurnErrors(host, this);
    this.cycle = new TurnCycle(host, this, this.bookkeeping, this.errors);
  }

  /** The only truth about the session's turn. */
  get turn(): TurnState {
    return this.cycle.turn;
  }

  /** Counts the turns; the diff review and write history key changes by it. */
  get turnNumber(): number {
    return this.cycle.number;
  }

  get error(): SessionError | undefined {
    return this.errors.error;
  }

  get failedPrompt(): ComposerPrompt | undefined {
    return this.errors.failedPrompt;
  }

  /**
   * Agent session ids are unique only per agent; the bridges and brokers are shared by all agents, so
   * they see this agent-qualified id instead.
   */
  get scopedId(): string {
    return scopedSessionId(this.agentId, this.acpSessionId);
  }

  get transcript(): Transcript {
    return this.state.transcript;
  }

  get turnId(): string {
    return `${this.key}#${this.turnNumber}`;
  }

  get turnRef(): ReviewTurn {
    const folders = [this.cwd, ...this.additionalDirectories];
    return { scopedId: this.scopedId, turnId: this.turnId, folders, label: `${this.title} · turn ${this.turnNumber}` };
  }

  /** The kind a tool call of this session was announced with (its raw kind when the agent used its own). */
  toolKindOf(toolCallId: string): string | undefined {
    const item = this.transcript.items.find((i) => i.kind === 'tool_call' && i.toolCallId === toolCallId);
    return item?.kind === 'tool_call' ? (item.rawKind ?? item.toolKind) : undefined;
  }

  get title(): string {
    return sessionTitle(this.transcript);
  }

  // ---- the transcript: every change goes through the reducer and out as ops

  private emit(ops: TranscriptOp[]): void {
    if (ops.length > 0) this.opsEmitter.fire(ops);
  }

  /** Something the chat shows of the session changed (its turn, error, capabilities...). */
  changed(): void {
    this.changeEmitter.fire();
  }

  /** A session/update from the agent. */
  receive(update: SessionUpdate): void {
    if (this.suppressReplay) return;
    this.take(update, this.state.apply(update));
    this.cycle.saw(update);
  }

  /** An update of a child session nested in this one (subagents); `path` runs from this session's child down. */
  receiveNested(path: readonly string[], update: SessionUpdate): void {
    if (this.suppressReplay) return;
    this.take(update, this.state.applyNested(path, update));
    this.cycle.heard();
  }

  /** The nest of a child session (at any depth) in this session's transcript. */
  subagent(sessionId: string): SubagentItem | undefined {
    return this.state.nestOf(sessionId);
  }

  private take(update: SessionUpdate, ops: TranscriptOp[]): void {
    this.emit(ops);
    this.bookkeeping.noticeToolCall(update, ops);
  }

  /** The turn's end marker, with what the agent said of its end. */
  recordTurnEnd(stopReason: StopReason, usage?: TurnUsage): void {
    this.emit(this.state.recordTurnEnd(stopReason, usage));
  }

  /** The turn is over: none of its tool calls runs any more. */
  recordTurnStopped(): void {
    this.emit(this.state.recordTurnStopped());
  }

  recordError(message: string, detail?: string): void {
    this.emit(this.state.recordError(message, detail));
  }

  /** A switchboard.autoApprove rule answered without a card: said where the tool call shows. */
  noteAutoApproval(toolTitle: string | undefined, description: string): void {
    const title = toolTitle ? `${toolTitle}: allowed without asking` : 'Allowed without asking';
    this.emit(this.state.apply({ sessionUpdate: 'notice', severity: 'info', title, description }));
  }

  /** Said in the transcript where the user is looking (a fork's origin; a warning for a change to review). */
  note(title: string, description?: string, severity: 'info' | 'warning' = 'info'): void {
    this.emit(this.state.apply({ sessionUpdate: 'notice', severity, title, ...(description ? { description } : {}) }));
  }

  /**
   * Rename: stored by the agent when it supports session/set_title (it may trim or shorten it), otherwise
   * kept in the local transcript. Either way the transcript's title changes, so it is saved with it.
   */
  async rename(title: string): Promise<void> {
    let stored = title;
    if (this.capabilities.title && !this.detached) {
      const connection = await this.host.connect(this);
      stored = await connection.setSessionTitle(this.acpSessionId, title);
    }
    this.emit(this.state.setTitle(stored));
    this.changed();
  }

  /** Modes, config options and models from session/new, load or resume. */
  applySetup(setup: LoadSessionResult): void {
    this.emit(this.state.applySessionSetup(setup));
  }

  /** The instructions sent (or not) when the session was created, loaded, resumed or forked. */
  useInstructions(view: InstructionsView | undefined): void {
    this.instructions = view;
    this.changed();
  }

  /** The session now lives in this agent session of a (re)started agent process. */
  bind(acpSessionId: string, agentInfo: InitializeResult | undefined): void {
    this.acpSessionId = acpSessionId;
    this.detached = false;
    this.capabilities = composerCapabilities(agentInfo?.agentCapabilities);
  }

  // ---- the turn

  /**
   * One prompt turn, start to end; resolves with `signInRequired` when it stopped for the agent's sign-in.
   * `shownAlready`: the prompt is in the transcript from a turn that stopped for sign-in; sent again
   * after signing in, it is not recorded twice.
   */
  async prompt(prompt: ComposerPrompt, { shownAlready = false }: { shownAlready?: boolean } = {}): Promise<PromptOutcome> {
    if (this.turn !== 'idle') throw new Error('The agent is still working on the previous message.');
    const signal = this.cycle.begin();
    let turn: ReviewTurn | undefined;
    let outcome: PromptOutcome = { signInRequired: false };
    const firstItem = this.transcript.items.length;
    try {
      const connection = await this.host.connect(this);
      const { buildPromptBlocks } = await loadPromptBuilder();
      const built = await buildPromptBlocks(prompt, this.capabilities, this.host.promptSources(this));
      if (built.refused) {
        // Said once, in the transcript, with the way forward; the agent got nothing, the composer has the message again.
        this.recordError(built.refused.message, `${built.refused.detail}${shownAlready ? '' : ' Your message is back in the message box.'}`);
        if (!shownAlready) this.refusedEmitter.fire(prompt);
        return outcome;
      }
      turn = this.turnRef;
      if (built.dropped.length > 0 && !shownAlready) this.recordError(`Not sent: ${built.dropped.join(', ')}. ${this.agentId} does not accept images.`);
      if (!shownAlready) this.emit(this.state.recordUserPrompt(built.blocks));
      // The folders' baseline, before the agent has the prompt (the message already shows meanwhile).
      const baselineStart = performance.now();
      await this.bookkeeping.begin(turn);
      // The agent gets the prompt only after the baseline: its time is part of the wait for the first chunk.
      this.host.log.debug(`turn: the checkpoint baseline of ${this.key} took ${(performance.now() - baselineStart).toFixed(0)} ms before session/prompt`);
      if (signal.aborted) this.recordTurnEnd('cancelled');
      else await this.run(connection, built.blocks, signal);
    } catch (error) {
      // The prompt shows in the transcript once a turn began (or from the turn that stopped before).
      if (error instanceof AuthRequiredError) outcome = { signInRequired: true, shown: shownAlready || turn !== undefined };
      this.errors.fail(error);
      this.errors.offerRetry(prompt, error);
    } finally {
      await this.cycle.end(turn, firstItem);
    }
    return outcome;
  }

  /** Resolves when the last turn's changed files and checkpoint are recorded (at once when none is pending). */
  settled(): Promise<void> {
    return this.bookkeeping.settled();
  }

  private async run(connection: AcpClientConnection, blocks: ContentBlock[], signal: AbortSignal): Promise<void> {
    const result = await this.host.withAuth(
      this.agentId,
      () => connection.prompt(this.acpSessionId, blocks, { signal, cancelGraceMs: CANCEL_GRACE_MS, downgradeResources: true }),
      'sends your message again',
    );
    this.recordTurnEnd(result.stopReason, result.usage);
    if (result.cancelledLocally) this.errors.cancelUnconfirmed();
  }

  /**
   * Steer: the message into the running turn (steering.ts, loaded on the first steer). An agent that started a
   * turn of its own with it instead: that turn runs, stops and ends for the user as one of theirs.
   */
  async steer(prompt: ComposerPrompt): Promise<SteerAnswer> {
    const [{ steerTurn }, { buildPromptBlocks }] = await Promise.all([import('./turn/steering'), loadPromptBuilder()]);
    const steered = await steerTurn(this, {
      log: this.host.log,
      connect: () => this.host.connect(this),
      build: () => buildPromptBlocks(prompt, this.capabilities, this.host.promptSources(this)),
      recordSteered: (b) => this.emit(this.state.recordSteeredPrompt(b)),
    });
    if (steered.answer === 'startedNewTurn') void this.cycle.followAgentTurn(steered.connection);
    return steered.answer;
  }

  /** Cancel one subagent's work: `session/cancel` on its own session id, only where the agent granted it. */
  async cancelSubagent(subagentSessionId: string): Promise<void> {
    const child = this.state.nestOf(subagentSessionId);
    if (!child) throw new Error('That subagent is not part of this session.');
    if (!child.cancellable) throw new Error(`${this.agentId} does not let this subagent be cancelled.`);
    if (this.detached) throw new Error(`${this.agentId} is not running: its subagents ended with it.`);
    await (await this.host.connect(this)).cancel(subagentSessionId);
  }

  /** Stop: session/cancel, pending requests answered cancelled. Safe to call twice or when idle. */
  cancel(): void {
    this.cycle.cancel();
  }

  /** The agent process is gone (crash or restart): the turn ends with what it said, the binding is forgotten. */
  detach(crash?: { message: string; detail?: string }): void {
    if (crash && this.turn !== 'idle') this.recordError(crash.message, crash.detail);
    this.cycle.processEnded(crash !== undefined);
    this.host.cancelRequests(this.scopedId);
    this.host.disposeTerminals(this.scopedId);
    this.host.releaseTools(this.key);
    this.detached = true;
    this.changed();
  }

  dismissError(): void {
    this.errors.clear();
    this.changed();
  }

  /** A session/load or resume finished (with the error it failed with). */
  loaded(error?: SessionError): void {
    this.loading = false;
    if (error) this.errors.show(error);
    this.replayEnded();
    this.changed();
  }

  /** The transcript was replayed by the agent or restored from the store: no tool call in it is running. */
  replayEnded(): void {
    this.emit(this.state.recordReplayEnd());
  }

  /** Something the user asked of this session failed: said in its banner. */
  showError(error: SessionError): void {
    this.errors.show(error);
    this.changed();
  }

  // ---- session settings

  async setMode(modeId: string): Promise<void> {
    const connection = await this.host.connect(this);
    await connection.setMode(this.acpSessionId, modeId);
    this.emit(this.state.setMode(modeId));
  }

  async setModel(modelId: string): Promise<void> {
    const connection = await this.host.connect(this);
    await connection.setModel(this.acpSessionId, modelId);
    this.emit(this.state.setCurrentModel(modelId));
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const connection = await this.host.connect(this);
    this.emit(this.state.setConfigOptions(await connection.setConfigOption(this.acpSessionId, configId, value)));
  }

  dispose(): void {
    this.cycle.dispose();
    this.opsEmitter.dispose();
    this.changeEmitter.dispose();
    this.refusedEmitter.dispose();
  }
}

export function scopedSessionId(agentId: string, acpSessionId: string): string {
  return JSON.stringify([agentId, acpSessionId]);
}
