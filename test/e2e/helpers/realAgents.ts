// Real ACP agents from npm in the e2e tier: each one is pointed at its own scripted model endpoint
// (test/fixtures/modelEndpoint, 127.0.0.1 only) started here in the mocha process, with a fresh HOME and
// its recipe's env (test/fixtures/realAgents), and defined in `switchboard.agents`. Plus the chat-side
// moves a user makes during a real turn: answering every permission request with its allow_once button.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { ModelEndpoint, type ApiHandler } from '../../fixtures/modelEndpoint/endpoint';
import { agentCommand, blankedCredentials, prepareAgentEnv, type PrepareOptions, type RealAgentRecipe } from '../../fixtures/realAgents/recipe';
import { button, transcript, turnsEnded, until } from './chat';
import { e2eEnv } from './workbench';
import { persistedWorkspaceState } from './stored';

/** A real agent's first start and turn on a loaded 2-core machine can take tens of seconds. */
export const REAL_TURN_TIMEOUT_MS = 150_000;

export interface E2ERealAgent {
  /** Its name in switchboard.agents (and in the Agent picker). */
  readonly name: string;
  readonly recipe: RealAgentRecipe;
  readonly endpoint: ModelEndpoint;
  readonly home: string;
  /** The `switchboard.agents` entry. */
  readonly definition: { command: string; args: string[]; env: Record<string, string> };
  dispose(): Promise<void>;
}

/**
 * Starts a scripted endpoint for the agent and prepares a fresh HOME with its recipe (cwd: the workspace
 * the workbench has open). The definition's env blanks any credential this process has, so the agent
 * sees only what the recipe gives it and talks to 127.0.0.1 only.
 */
export async function prepareRealAgent(
  recipe: RealAgentRecipe,
  handlers: readonly ApiHandler[],
  options: Pick<PrepareOptions, 'permissions' | 'signedOut'> & { name?: string },
): Promise<E2ERealAgent> {
  const endpoint = await ModelEndpoint.start(handlers);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-e2e-${recipe.id}-home-`));
  const env = prepareAgentEnv(recipe, { home, cwd: e2eEnv().workspace, endpointUrl: endpoint.url, permissions: options.permissions, signedOut: options.signedOut });
  const blanked = blankedCredentials();
  const { command, args } = agentCommand(recipe.id);
  return {
    name: options.name ?? recipe.label,
    recipe,
    endpoint,
    home,
    definition: { command, args, env: { ...blanked, HOME: home, USERPROFILE: home, ...env } },
    async dispose() {
      await endpoint.close();
      // code-server keeps a closed window's extension host (and so its agents) alive for reconnection: the
      // agent's processes would go on writing into the home being removed.
      killProcessesWithHome(home);
      fs.rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** `switchboard.agents` for these agents. */
export function agentsSetting(agents: readonly E2ERealAgent[]): Record<string, E2ERealAgent['definition']> {
  return Object.fromEntries(agents.map((a) => [a.name, a.definition]));
}

export interface AnsweredPermission {
  readonly title: string;
  /** The allow_once option's name, which is the button's accessible name. */
  readonly option: string;
}

/** The pending permission cards of the visible session. */
export const permissionCards = (chat: FrameLocator): Locator => transcript(chat).getByRole('region', { name: /^Permission: / });

/**
 * Until more than `before` turns have ended in the visible transcript: each permission card that shows
 * is answered by clicking its allow_once option's button (found by the option's kind, then asserted to be
 * the button whose accessible name is the option's name). Returns what was answered, in order.
 */
export async function allowUntilTurnEnds(chat: FrameLocator, before: number, timeoutMs = REAL_TURN_TIMEOUT_MS): Promise<AnsweredPermission[]> {
  const answered: AnsweredPermission[] = [];
  const cards = permissionCards(chat);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const next = await until(
      async () => ((await turnsEnded(chat)) > before ? 'ended' : (await cards.count()) > 0 ? 'card' : undefined),
      'a permission request or the end of the turn',
      Math.max(1_000, deadline - Date.now()),
    );
    if (next === 'ended') return answered;
    const card = cards.first();
    const heading = card.locator('.permission-title');
    const headingId = await heading.getAttribute('id');
    const title = ((await heading.innerText()).trim()).replace(/^Permission:\s*/, '');
    const allowOnce = card.locator('.permission-option.kind-allow_once');
    assert.strictEqual(await allowOnce.count(), 1, `one allow_once option on "${title}": ${JSON.stringify(await card.locator('.permission-option').allInnerTexts())}`);
    const option = (await allowOnce.innerText()).trim();
    const named = button(card, option);
    assert.strictEqual(await named.count(), 1, `a button named "${option}" in the card "${title}"`);
    await named.click();
    await until(async () => (await transcript(chat).locator(`[id="${headingId}"]`).count()) === 0, `the answered card "${title}" to go`, 30_000);
    answered.push({ title, option });
  }
}

/** The text of the extension's log files named `file` (e.g. "Switchboard.log"), of every window so far. */
export function extensionLog(file = 'Switchboard.log'): string {
  const root = path.join(e2eEnv().userDataDir, 'logs');
  const parts: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory() && depth < 5) walk(full, depth + 1);
      else if (e.isFile() && e.name === file && /switchboard/i.test(path.basename(dir))) parts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  walk(root, 0);
  return parts.join('\n');
}

export interface TracedMessage {
  readonly direction: 'send' | 'receive';
  /** "request", "response", "notification", "error". */
  readonly type: string;
  readonly method: string;
  readonly json: unknown;
}

/**
 * What went between the extension and `agent`, from the "ACP Protocol" log (switchboard.trace "verbose":
 * a header line, then the message's JSON on the next line).
 */
export function protocolTrace(agent: string): TracedMessage[] {
  const lines = extensionLog('ACP Protocol.log').split('\n');
  const out: TracedMessage[] = [];
  const head = /^\S+ \S+ \[\w+\] \[(.+)\] (→|←) (\w+) (\S+)/;
  for (let i = 0; i < lines.length - 1; i++) {
    const m = head.exec(lines[i]);
    if (!m || m[1] !== agent || !lines[i + 1].startsWith('{')) continue;
    try {
      out.push({ direction: m[2] === '→' ? 'send' : 'receive', type: m[3], method: m[4], json: JSON.parse(lines[i + 1]) });
    } catch {
      /* a line the log service cut: not a whole message */
    }
  }
  return out;
}

/**
 * Everything the agent sent as the output of the tool calls whose title or input mentions `needle`:
 * streamed `_meta.terminal_output` data, and the text of rawOutput and of text content.
 */
export function toolCallOutputSent(trace: readonly TracedMessage[], needle: string): string {
  type Update = { sessionUpdate?: string; toolCallId?: string; title?: unknown; rawInput?: unknown; rawOutput?: unknown; content?: unknown; _meta?: { terminal_output?: { data?: unknown } } };
  const updates = trace
    .filter((m) => m.method === 'session/update' && m.direction === 'receive')
    .map((m) => (m.json as { params?: { update?: Update } }).params?.update)
    .filter((u): u is Update => !!u?.toolCallId && (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update'));
  const ids = new Set(updates.filter((u) => JSON.stringify([u.title, u.rawInput]).includes(needle)).map((u) => u.toolCallId));
  const parts: string[] = [];
  for (const u of updates) {
    if (!ids.has(u.toolCallId)) continue;
    const data = u._meta?.terminal_output?.data;
    if (typeof data === 'string') parts.push(data);
    if (u.rawOutput !== undefined) parts.push(JSON.stringify(u.rawOutput));
    if (Array.isArray(u.content)) parts.push(JSON.stringify(u.content));
  }
  // The command line itself is not output.
  return parts.join('\n').split(needle).join('');
}

/** The last title the agent gave each tool call (tool_call and tool_call_update), in order of appearance. */
export function toolCallTitles(trace: readonly TracedMessage[]): string[] {
  const titles = new Map<string, string>();
  for (const m of trace) {
    if (m.method !== 'session/update' || m.direction !== 'receive') continue;
    const update = (m.json as { params?: { update?: { sessionUpdate?: string; toolCallId?: string; title?: unknown } } }).params?.update;
    if (!update?.toolCallId || (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update')) continue;
    if (typeof update.title === 'string') titles.set(update.toolCallId, update.title);
  }
  return [...titles.values()];
}

/**
 * The session tabs the extension has stored for the next window (its workspace memento
 * "switchboard.openTabs.v1"), as the browser holds them. Undefined until it has been stored.
 */
export async function persistedOpenTabs(page: Page): Promise<string[] | undefined> {
  const tabs = (await persistedWorkspaceState(page))?.['switchboard.openTabs.v1'] as { keys?: unknown } | undefined;
  return Array.isArray(tabs?.keys) ? tabs.keys.filter((k): k is string => typeof k === 'string') : undefined;
}

/** SIGKILLs every process whose environment has HOME=`home` (the agent and whatever it started). */
function killProcessesWithHome(home: string): void {
  const marker = `HOME=${home}\0`;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(marker)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Gone already, or not ours to read.
    }
  }
}
