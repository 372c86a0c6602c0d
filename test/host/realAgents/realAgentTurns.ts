// Runs a real agent from npm inside the extension, against the scripted model endpoint (started in the
// extension host), through the product: switchboard.agents, SessionBackend, the fs bridge, permissions,
// the diff review. Used by wholeTurns.test.ts, one describe per agent.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { TerminalSnapshot } from '../../../src/shared/chatState';
import type { Transcript, TranscriptItem } from '../../../src/shared/transcript';
import { ModelEndpoint, type ApiHandler, type Step } from '../../fixtures/modelEndpoint/endpoint';
import { agentCommand, blankedCredentials, prepareAgentEnv, type PrepareOptions, type RealAgentRecipe } from '../../fixtures/realAgents/recipe';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { api, prompt, stopAgent } from '../integration/helpers';
import { makeTempDir, removeDir } from '../../agents/realAgentSetup';

/** A real agent's first start and turn on a loaded 2-core machine can take tens of seconds. */
export const REAL_TURN_TIMEOUT_MS = 150_000;

export interface HostRealAgent {
  readonly name: string;
  readonly endpoint: ModelEndpoint;
  readonly home: string;
  dispose(): Promise<void>;
}

/** Defines the agent in switchboard.agents (its recipe's env on a fresh HOME) and starts the endpoint. */
export async function defineRealAgent(
  sb: SwitchboardApi,
  recipe: RealAgentRecipe,
  handlers: readonly ApiHandler[],
  options: Pick<PrepareOptions, 'permissions' | 'signedOut'>,
): Promise<HostRealAgent> {
  const endpoint = await ModelEndpoint.start(handlers);
  const home = makeTempDir(`switchboard-host-${recipe.id}-home-`);
  const env = prepareAgentEnv(recipe, { home, cwd: workspaceRoot(), endpointUrl: endpoint.url, ...options });
  // The definition's env is added to the extension host's: blank any credential the host has.
  const blanked = blankedCredentials();
  const { command, args } = agentCommand(recipe.id);
  const name = recipe.label;
  // Added to the agents already defined (a test may run several); dispose in reverse order.
  const defined = vscode.workspace.getConfiguration('switchboard').inspect<Record<string, unknown>>('agents')?.globalValue ?? {};
  const restore = await setSettings({ 'switchboard.agents': { ...defined, [name]: { command, args, env: { ...blanked, HOME: home, USERPROFILE: home, ...env } } } });
  await waitFor(() => sb.backend.agents.views().some((a) => a.id === name), `${name} in the agent list`);
  return {
    name,
    endpoint,
    home,
    async dispose() {
      // Stopped, not restarted: a later test may define an agent of the same name with another setup.
      await stopAgent(sb, name).catch(() => undefined);
      await endpoint.close();
      await restore();
      removeDir(home);
    },
  };
}

export interface TurnResult {
  readonly permissionsAnswered: Array<{ title: string; option: string }>;
  readonly error?: string;
}

/**
 * Sends `text` in the session and answers every permission request with its first option of `kind`
 * (as the chat's button of that option's name would), until the turn ends.
 */
export async function runTurn(sb: SwitchboardApi, sessionId: string, text: string, steps: readonly Step[], endpoint: ModelEndpoint, kind = 'allow_once'): Promise<TurnResult> {
  endpoint.script(steps);
  let done = false;
  const turn = sb.backend.sessions.require(sessionId).prompt(prompt(text)).finally(() => (done = true));
  const answered = await answerPermissions(sb, sessionId, () => done, kind);
  await turn;
  return { permissionsAnswered: answered, error: view(sb, sessionId)?.error?.message };
}

/**
 * Answers the session's permission requests, each with its first option of `kind`, one at a time, until
 * `until()` holds. Returns what was answered.
 */
export async function answerPermissions(sb: SwitchboardApi, sessionId: string, until: () => boolean, kind = 'allow_once'): Promise<TurnResult['permissionsAnswered']> {
  const answered: Array<{ title: string; option: string }> = [];
  while (!until()) {
    const pending = await waitFor(() => until() || view(sb, sessionId)?.permissions[0], 'a permission request or the end of the wait', REAL_TURN_TIMEOUT_MS);
    if (pending === true) break;
    const option = pending.options.find((o) => o.kind === kind) ?? pending.options.find((o) => o.kind.startsWith(kind.split('_')[0]));
    if (!option) throw new Error(`no ${kind} option in ${JSON.stringify(pending.options)}`);
    answered.push({ title: pending.title, option: option.name });
    sb.backend.requests.answerPermission(pending.requestId, { optionId: option.optionId });
    await waitFor(() => until() || view(sb, sessionId)?.permissions[0]?.requestId !== pending.requestId, 'the answered request to go');
  }
  return answered;
}

export function view(sb: SwitchboardApi, sessionId: string) {
  return sb.backend.sessions.snapshots().find((s) => s.view.sessionId === sessionId)?.view;
}

export function transcript(sb: SwitchboardApi, sessionId: string): Transcript {
  const found = sb.backend.sessions.snapshots().find((s) => s.view.sessionId === sessionId);
  if (!found) throw new Error(`no session ${sessionId}`);
  return found.transcript;
}

/** The items since the last user message (the last turn). */
export function lastTurn(t: Transcript): TranscriptItem[] {
  let start = 0;
  t.items.forEach((item, i) => {
    if (item.kind === 'user_message') start = i;
  });
  return t.items.slice(start);
}

export function agentText(items: readonly TranscriptItem[]): string {
  return items
    .filter((i) => i.kind === 'agent_message')
    .map((i) => ('content' in i ? i.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : ''))
    .join('');
}

/**
 * Everything a tool card shows as text: title, command, content text, diffs' new text, the output, and
 * the output of the client terminals it embeds (`terminals`: the chat's terminal snapshots).
 */
export function cardText(item: TranscriptItem, terminals: readonly TerminalSnapshot[] = []): string {
  if (item.kind !== 'tool_call') return '';
  const parts = [item.title, JSON.stringify(item.rawInput ?? '')];
  for (const c of item.content) {
    if (c.type === 'content' && c.content.type === 'text') parts.push(c.content.text);
    if (c.type === 'diff') parts.push(c.newText);
    if (c.type === 'terminal') parts.push(terminals.find((t) => t.terminalId === c.terminalId)?.output ?? '');
  }
  if (item.output) parts.push(item.output.text);
  return parts.join('\n');
}

/** A workspace file the test edits, put back as it was afterwards. */
export class WorkspaceFile {
  readonly path: string;
  readonly original: string;
  constructor(relative: string) {
    this.path = path.join(workspaceRoot(), relative);
    this.original = fs.readFileSync(this.path, 'utf8');
  }
  read(): string {
    return fs.readFileSync(this.path, 'utf8');
  }
  restore(): void {
    fs.writeFileSync(this.path, this.original);
  }
}

export interface RealAgentContext {
  sb: SwitchboardApi;
  agent: HostRealAgent;
  /** The session a failed test's transcript is printed from. */
  sessionId?: string;
  /** More to print when a test fails (another endpoint's log). */
  moreLog?: () => string;
}

/**
 * For a describe block: the real agent, on its own scripted endpoint, defined before the tests and disposed
 * after them; a failed test prints the endpoint's log and the transcript of `sessionId`.
 */
export function withRealAgent(recipe: RealAgentRecipe, handlers: () => readonly ApiHandler[], options: Pick<PrepareOptions, 'permissions' | 'signedOut'>): RealAgentContext {
  const ctx = {} as RealAgentContext;
  before(async () => {
    ctx.sb = await api();
    ctx.agent = await defineRealAgent(ctx.sb, recipe, handlers(), options);
  });
  after(async () => {
    await ctx.agent?.dispose();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed' && ctx.agent) console.log(`${describeFailure(ctx.agent, ctx.sb, ctx.sessionId)}${ctx.moreLog?.() ?? ''}`);
  });
  return ctx;
}

export function describeFailure(agent: HostRealAgent, sb: SwitchboardApi, sessionId: string | undefined): string {
  const t = sessionId ? JSON.stringify(transcript(sb, sessionId).items.slice(-12), null, 1).slice(-6000) : '';
  return `\n--- model endpoint log ---\n${agent.endpoint.describeLog()}\n--- last transcript items ---\n${t}`;
}
