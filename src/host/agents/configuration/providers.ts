// The Model provider settings of agents that advertise the unstable `providers` capability: where each of
// the agent's LLM providers sends its model calls (providers/list), changed (providers/set) or turned off
// (providers/disable) from the chat. The user's choice is kept per agent in SecretStorage (its headers are
// credentials) and applied again after every initialize, before the agent's sessions open. Outcomes are
// said in the chat (AgentView.providers); a failed action never changes what was kept.
import * as vscode from 'vscode';
import { AcpRequestError, errorMessage, type AcpClientConnection, type ListProvidersResult, type ProviderInfo } from '../../../acp';
import type { AgentProvidersView, ProviderAction, ProviderView } from '../../../shared/chatState';
import type { AgentSecrets } from '../../auth/agentSecrets';
import { checkProviderUrl, describeBaseUrl, parseSavedChoices, ProviderChoiceError, resolveHeaders, type SavedChoice, type SavedChoices } from './providerChoice';

/** The ':' keeps it out of the agent's environment (AgentSecrets.environment); sign-out clears it with the rest. */
const SECRET_NAME = 'providers:choices';
/** Claude's providers/set reads the gateway's model list first (its own limit is 10 s). */
const REQUEST_TIMEOUT_MS = 60_000;

export interface AgentProvidersOptions {
  secrets: AgentSecrets;
  log: vscode.LogOutputChannel;
  /** The agent's connection, starting it when it is not running (which applies the kept choice first). */
  start(agentId: string): Promise<AcpClientConnection>;
}

interface AgentState {
  providers?: ProviderInfo[];
  saved: SavedChoices;
  busy: number;
  error?: string;
  notice?: string;
  /** Actions run one after another. */
  queue: Promise<void>;
}

export class AgentProviders implements vscode.Disposable {
  private readonly states = new Map<string, AgentState>();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly o: AgentProvidersOptions) {}

  /** The settings as the chat shows them; undefined unless `connection` is live and advertises `providers`. */
  view(agentId: string, connection: AcpClientConnection | undefined): AgentProvidersView | undefined {
    if (!connection || connection.isClosed || !connection.supports('providers/list')) return undefined;
    const state = this.states.get(agentId);
    const view: AgentProvidersView = {};
    if (!state) return view;
    if (state.providers) view.providers = state.providers.map((p) => providerView(p, state.saved[p.providerId]));
    if (state.busy > 0) view.busy = true;
    if (state.error) view.error = state.error;
    if (state.notice) view.notice = state.notice;
    return view;
  }

  /** After initialize: the kept choices go to the agent again (before any session opens), then the list is read. */
  async afterInitialize(agentId: string, connection: AcpClientConnection): Promise<void> {
    const state = this.state(agentId);
    state.providers = undefined;
    state.saved = await this.load(agentId);
    const choices = Object.entries(state.saved);
    if (!connection.supports('providers/set')) {
      if (choices.length > 0) this.o.log.info(`[${agentId}] does not advertise providers: the kept Model provider choice is not applied`);
      return;
    }
    const failures: string[] = [];
    for (const [providerId, choice] of choices) {
      try {
        await this.apply(agentId, connection, providerId, choice);
      } catch (error) {
        this.o.log.warn(`[${agentId}] could not apply the kept choice for provider ${providerId} again: ${errorMessage(error)}`);
        failures.push(`${providerId}: ${reason(error)}`);
      }
    }
    state.error =
      failures.length > 0
        ? `${agentId} did not take your Model provider choice when it started (${failures.join('; ')}). It uses its own settings for ${failures.length === 1 ? 'that provider' : 'those providers'} until you set ${failures.length === 1 ? 'it' : 'them'} again; your choice is kept.`
        : undefined;
    state.notice = undefined;
    this.changed();
    void this.enqueue(agentId, () => this.refresh(agentId, connection));
  }

  /** A chat action; its outcome (or why it was refused) is said in the view, never thrown. */
  run(agentId: string, action: ProviderAction): Promise<void> {
    if (action.kind === 'dismiss') {
      const state = this.state(agentId);
      state.error = state.notice = undefined;
      this.changed();
      return Promise.resolve();
    }
    return this.enqueue(agentId, async () => {
      const state = this.state(agentId);
      state.error = state.notice = undefined;
      try {
        if (action.kind === 'set') state.notice = await this.set(agentId, action);
        if (action.kind === 'disable') state.notice = await this.disable(agentId, action.providerId);
        await this.refresh(agentId, await this.o.start(agentId));
      } catch (error) {
        state.error = failure(agentId, error);
        this.o.log.warn(`[${agentId}] Model provider ${action.kind}: ${state.error}`);
      }
    });
  }

  /** Sign-out cleared the agent's secrets, the kept choices among them. */
  forget(agentId: string): void {
    const state = this.states.get(agentId);
    if (!state) return;
    state.saved = {};
    this.changed();
  }

  /** Checked first (nothing is sent when a check fails), then sent; kept only once the agent took it. */
  private async set(agentId: string, a: Extract<ProviderAction, { kind: 'set' }>): Promise<string> {
    const saved = await this.load(agentId);
    const previous = saved[a.providerId];
    const headers = resolveHeaders(a.headers, previous?.kind === 'set' ? previous.headers : {});
    const baseUrl = checkProviderUrl(a.baseUrl, Object.keys(headers));
    const listed = this.state(agentId).providers?.find((p) => p.providerId === a.providerId);
    if (listed && listed.supported.length > 0 && !listed.supported.includes(a.apiType)) {
      throw new ProviderChoiceError(`${a.providerId} does not take the API type "${a.apiType}" (it lists ${listed.supported.join(', ')}).`);
    }
    const choice: SavedChoice = { kind: 'set', apiType: a.apiType, baseUrl, headers };
    await this.apply(agentId, await this.o.start(agentId), a.providerId, choice);
    await this.store(agentId, { ...saved, [a.providerId]: choice });
    return `${a.providerId} now sends model calls to ${describeBaseUrl(baseUrl)} (${a.apiType}). Sessions started from now on use it; Switchboard sets it again whenever ${agentId} starts.`;
  }

  private async disable(agentId: string, providerId: string): Promise<string> {
    const listed = this.state(agentId).providers?.find((p) => p.providerId === providerId);
    if (!listed || listed.required) throw new ProviderChoiceError(`${providerId} is ${listed ? 'required by the agent' : 'not one of its providers'}: it cannot be disabled.`);
    const saved = await this.load(agentId);
    await this.apply(agentId, await this.o.start(agentId), providerId, { kind: 'disabled' });
    await this.store(agentId, { ...saved, [providerId]: { kind: 'disabled' } });
    return `${providerId} is disabled. Sessions started from now on do without it; Switchboard disables it again whenever ${agentId} starts.`;
  }

  private async apply(agentId: string, connection: AcpClientConnection, providerId: string, choice: SavedChoice): Promise<void> {
    if (choice.kind === 'disabled') {
      this.o.log.info(`[${agentId}] providers/disable ${providerId}`);
      await connection.disableProvider(providerId, { timeoutMs: REQUEST_TIMEOUT_MS });
      return;
    }
    const headers = Object.keys(choice.headers);
    const baseUrl = checkProviderUrl(choice.baseUrl, headers);
    this.o.log.info(`[${agentId}] providers/set ${providerId}: ${choice.apiType} at ${describeBaseUrl(baseUrl)}${headers.length > 0 ? `, headers ${headers.join(', ')}` : ''}`);
    await connection.setProvider(
      { providerId, apiType: choice.apiType, baseUrl, ...(headers.length > 0 ? { headers: choice.headers } : {}) },
      { timeoutMs: REQUEST_TIMEOUT_MS },
    );
  }

  private async refresh(agentId: string, connection: AcpClientConnection): Promise<void> {
    const state = this.state(agentId);
    let result: ListProvidersResult;
    try {
      result = await connection.listProviders({ timeoutMs: REQUEST_TIMEOUT_MS });
    } catch (error) {
      state.providers = [];
      state.error = `Could not read ${agentId}'s model providers: ${errorMessage(error)}`;
      this.o.log.warn(`[${agentId}] ${state.error}`);
      return;
    }
    if (result.skipped > 0) this.o.log.warn(`[${agentId}] providers/list: skipped ${result.skipped} entr${result.skipped === 1 ? 'y' : 'ies'} without a providerId or with a malformed current`);
    state.providers = result.providers;
    state.saved = await this.load(agentId);
  }

  private enqueue(agentId: string, work: () => Promise<void>): Promise<void> {
    const state = this.state(agentId);
    const run = state.queue.then(async () => {
      state.busy++;
      this.changed();
      try {
        await work();
      } finally {
        state.busy--;
        this.changed();
      }
    });
    state.queue = run.catch(() => undefined);
    return run;
  }

  private state(agentId: string): AgentState {
    let state = this.states.get(agentId);
    if (!state) this.states.set(agentId, (state = { saved: {}, busy: 0, queue: Promise.resolve() }));
    return state;
  }

  private async load(agentId: string): Promise<SavedChoices> {
    return parseSavedChoices(await this.o.secrets.get(agentId, SECRET_NAME));
  }

  private async store(agentId: string, choices: SavedChoices): Promise<void> {
    await this.o.secrets.set(agentId, SECRET_NAME, JSON.stringify(choices));
    this.state(agentId).saved = choices;
  }

  private changed(): void {
    this.changeEmitter.fire();
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

function providerView(p: ProviderInfo, saved: SavedChoice | undefined): ProviderView {
  const view: ProviderView = { providerId: p.providerId, supported: [...p.supported], required: p.required, current: p.current && { ...p.current } };
  if (saved?.kind === 'disabled') view.saved = { disabled: true };
  if (saved?.kind === 'set') view.saved = { apiType: saved.apiType, baseUrl: saved.baseUrl, headerNames: Object.keys(saved.headers) };
  return view;
}

/** Why, in a few words: the agent's own message and code for a JSON-RPC error. */
function reason(error: unknown): string {
  return error instanceof AcpRequestError ? `${error.message.replace(/\.\s*$/, '')} (${error.code})` : errorMessage(error);
}

function failure(agentId: string, error: unknown): string {
  if (error instanceof ProviderChoiceError) return `Not sent to ${agentId}: ${error.message}`;
  if (error instanceof AcpRequestError) return `${agentId} rejected the provider change: ${reason(error)}. Its provider settings stay as they were.`;
  return `The provider change did not reach ${agentId}: ${errorMessage(error)}. Its provider settings stay as they were.`;
}
