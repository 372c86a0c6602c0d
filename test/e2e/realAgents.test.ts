// The agents people run, from npm, in the real workbench through the chat UI as a user drives it: each
// one talks to its own scripted model endpoint (127.0.0.1, started in this process). Picked in the Agent
// picker, a typed message does a whole turn: streamed text, a read, an edit allowed with the agent's own
// allow_once button, a shell command whose output shows in its card; "Open diff" on the edit opens a diff
// editor; Undo All restores the file byte for byte; Stop (with Claude) ends a hanging turn and a second
// message in the same session completes. After a window reload the session is in History. Sign-in: Gemini signed out
// shows its methods in the chat (no error notification), also when picked with Codex's session open, and
// its API-key method asks for the key in VS Code's input box, opens the session, and a turn completes.
// Kilo, Cline and Droid (agents beyond the big five) do the same turn; after the window reload none of the
// agents' processes is left (found by the HOME each was given: Cline's detached hub daemon included).
import * as assert from 'assert';
import * as fs from 'fs';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { ApiHandler, Step } from '../fixtures/modelEndpoint/endpoint';
import { AnthropicApi } from '../fixtures/modelEndpoint/anthropic';
import { GeminiApi } from '../fixtures/modelEndpoint/gemini';
import { openaiChat } from '../fixtures/modelEndpoint/openaiChat';
import { openaiResponses } from '../fixtures/modelEndpoint/openaiResponses';
import { claudeRecipe } from '../fixtures/realAgents/claude';
import { clineRecipe } from '../fixtures/realAgents/cline';
import { codex } from '../fixtures/realAgents/codex';
import { droidRecipe } from '../fixtures/realAgents/droid';
import { kiloRecipe } from '../fixtures/realAgents/kilo';
import { geminiRecipe } from '../fixtures/realAgents/gemini';
import { opencodeRecipe } from '../fixtures/realAgents/opencode';
import { processesWithHome } from '../fixtures/realAgents/processes';
import { qwenRecipe } from '../fixtures/realAgents/qwen';
import type { RealAgentRecipe } from '../fixtures/realAgents/recipe';
import { button, editorTabs, messageBox, openChat, selectAgent, sendMessage, tabs, transcript, turnsEnded, until, waitForTurnEnd, workspaceFile } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import {
  agentsSetting,
  allowUntilTurnEnds,
  extensionLog,
  persistedOpenTabs,
  prepareRealAgent,
  protocolTrace,
  REAL_TURN_TIMEOUT_MS,
  toolCallOutputSent,
  toolCallTitles,
  type E2ERealAgent,
} from './helpers/realAgents';
import { closeAllEditors, screenshot } from './helpers/workbench';

interface AgentCase {
  readonly recipe: RealAgentRecipe;
  readonly handlers: () => readonly ApiHandler[];
  /** The agent's own bug: its shell output never reaches any client (Gemini CLI 0.61). */
  readonly noShellOutput?: string;
  /** Only the whole turn and its changed files here (CI time): the host tier runs Stop and a second turn. */
  readonly lean?: boolean;
  /**
   * Stop from the chat's button, then a second message (one agent: the button and the turn end it shows are
   * the chat's; every agent's own cancel and next turn are checked in the host tier, wholeTurns.test.ts).
   */
  readonly stopInChat?: boolean;
  /**
   * The agent writes with a tool that names no file and sends no diff (Cline's apply_patch): its card has no
   * "Open diff"; the changed-files list still catches the write (the turn's baseline on disk).
   */
  readonly unnamedWrites?: string;
}

const CASES: readonly AgentCase[] = [
  { recipe: claudeRecipe, handlers: () => [new AnthropicApi()], stopInChat: true },
  { recipe: qwenRecipe, handlers: () => [openaiChat] },
  { recipe: opencodeRecipe, handlers: () => [openaiChat] },
  { recipe: codex, handlers: () => [openaiResponses] },
  { recipe: geminiRecipe, handlers: () => [new GeminiApi()], noShellOutput: 'Gemini CLI 0.61 sends no shell output to any client' },
  { recipe: kiloRecipe, handlers: () => [openaiChat], lean: true },
  {
    recipe: clineRecipe,
    handlers: () => [openaiChat],
    lean: true,
    unnamedWrites: "Cline 3.0.65's apply_patch names no file (the patch is only in rawInput)",
    noShellOutput: "Cline 3.0.65 sends a command's output only in rawOutput [{query, result}], shown in the card's raw Output",
  },
  // Droid runs the command in a terminal of the client's (terminal/*): the card shows what that printed.
  { recipe: droidRecipe, handlers: () => [openaiChat], lean: true },
];

const ORIGINAL = `'use strict';\n\n/** The greeting. */\nfunction greeting() {\n  return 'hello';\n}\n\nmodule.exports = { greeting };\n`;
const EDITED = ORIGINAL.replace("'hello'", "'hello, world'");

const selectedLabel = (chat: FrameLocator): Promise<string> =>
  chat.getByRole('combobox', { name: 'Agent', exact: true }).evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? '');

/** Notifications the workbench shows (toasts and the notification center). */
async function notifications(page: Page): Promise<string[]> {
  const texts = await page.locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item').allInnerTexts();
  return texts.map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

/**
 * Opens a session with `agent` as a user does: picks it in the Agent picker (with another agent's session
 * active that opens a session with it), or, with no session open, picks it and presses New session.
 * Resolves when the new tab is selected and the session header names the agent.
 */
async function openSessionWith(chat: FrameLocator, agent: string): Promise<void> {
  const before = await tabs(chat).count();
  await selectAgent(chat, agent);
  if (before === 0) await button(chat, 'New session').click();
  await until(async () => (await tabs(chat).count()) > before, `a session tab for ${agent}`, REAL_TURN_TIMEOUT_MS);
  await until(async () => (await tabs(chat).last().getAttribute('aria-selected')) === 'true', 'the new tab to be selected', 30_000);
  await chat.locator('.session-header .agent-status', { hasText: agent }).waitFor({ timeout: 30_000 });
  assert.strictEqual(await selectedLabel(chat), agent, 'the Agent picker shows the agent');
}

describe('Real agents from npm in the chat', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS + 60_000);
  const agents = new Map<string, E2ERealAgent>();
  /** The agents whose whole turn ran in this window (its edit then waits in the changed files). */
  const turned = new Set<string>();

  before(async function () {
    this.timeout(120_000);
    for (const c of CASES) {
      agents.set(c.recipe.id, await prepareRealAgent(c.recipe, c.handlers(), { permissions: 'ask' }));
      fs.writeFileSync(workspaceFile(`src/${c.recipe.id}-e2e.js`), ORIGINAL);
    }
  });
  const cw = useChatWorkbench({
    name: 'realAgents',
    agent: codex.label,
    noPick: true,
    settings: () => ({ 'switchboard.agents': agentsSetting([...agents.values()]), 'switchboard.trace': 'verbose', 'files.autoSave': 'off' }),
    width: 1400,
    height: 1000,
    sideBar: 640,
    onFailure: (title) =>
      [...agents.values()]
        .filter((a) => title.startsWith(a.name))
        .map((a) => `--- ${a.name}'s model endpoint log ---\n${a.endpoint.describeLog()}`)
        .join('\n'),
    // The next window (the sign-in tests, other files) starts without these sessions.
    beforeClose: (page) => closeAllSessions(page, cw.chat),
  });
  // Sessions another file left open come back in this window: close them, so each agent's is its own.
  before(() => closeAllSessions(cw.page, cw.chat));
  after(async () => {
    for (const a of agents.values()) await a.dispose().catch((e: unknown) => console.log(`    (cleaning up ${a.name} failed: ${String(e)})`));
    for (const c of CASES) fs.rmSync(workspaceFile(`src/${c.recipe.id}-e2e.js`), { force: true });
  });

  /**
   * A whole turn of the agent typed in the chat, in a session of its own: streamed text, a card per tool
   * call, the edit allowed, the shell output, the end of the turn.
   */
  async function wholeTurn(c: AgentCase): Promise<void> {
    const id = c.recipe.id;
    const name = c.recipe.label;
    const rel = `src/${id}-e2e.js`;
    const marker = `shell-ran-${id}`;
    const chat = cw.chat;
    const agent = agents.get(id)!;
    const file = workspaceFile(rel);
    await openSessionWith(chat, name);
    const log = transcript(chat);
    const steps: Step[] = [
      { text: 'Let me look at the file first.', tools: [{ read: { path: file } }] },
      { text: 'Now the edit.', tools: [{ edit: { path: file, oldText: "  return 'hello';\n", newText: "  return 'hello, world';\n" } }] },
      { text: 'Checking it with a command.', tools: [{ shell: { command: `echo ${marker} && wc -l ${rel} | tee /dev/null` } }] },
      { text: 'All done: the greeting now says hello, world.' },
    ];
    agent.endpoint.script(steps);
    const before = await turnsEnded(chat);
    await sendMessage(chat, `Make the greeting in ${rel} say hello, world, then check the file.`);
    const perms = await allowUntilTurnEnds(chat, before);
    console.log(`    ${name} asked: ${JSON.stringify(perms)}`);
    assert.ok(perms.length >= 1, 'the agent asked before editing');
    assert.strictEqual(agent.endpoint.remaining, 0, `every scripted step was taken:\n${agent.endpoint.describeLog()}`);

    const end = transcript(chat).locator('.item[data-kind="turn_end"]').last().locator('.turn-end');
    assert.doesNotMatch((await end.getAttribute('class')) ?? '', /reason-(cancelled|refusal|max)/);
    assert.strictEqual(await chat.locator('.session .banner-error').count(), 0, 'no error banner');

    // The streamed text, all of it.
    for (const text of ['Let me look at the file first.', 'Now the edit.', 'Checking it with a command.', 'All done: the greeting now says hello, world.']) {
      await log.getByRole('article', { name: 'Agent' }).filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
    }
    // Every tool call the agent sent (its last title for each, from the protocol trace) is a group
    // named by that title.
    const sent = (await until(() => {
      const trace = protocolTrace(name);
      return trace.some((m) => m.type === 'response' && m.method === 'session/prompt') ? toolCallTitles(trace) : undefined;
    }, `the turn in ${name}'s protocol trace`, 30_000))!;
    console.log(`    ${name} tool calls: ${JSON.stringify(sent)}`);
    assert.ok(sent.length >= 3, `a tool call per step: ${JSON.stringify(sent)}`);
    for (const title of sent) {
      assert.ok(title.trim().length > 0, 'every tool call has a title');
      await log.getByRole('group', { name: title.replace(/\s+/g, ' ').trim(), exact: true }).first().waitFor({ timeout: 10_000 });
    }
    // The edit's card carries its diff; the file on disk has the edit.
    if (!c.unnamedWrites) await log.locator('.tool-call').filter({ has: chat.getByRole('button', { name: 'Open diff', exact: true }) }).first().waitFor({ timeout: 10_000 });
    await until(() => fs.readFileSync(file, 'utf8') === EDITED, `${rel} on disk to carry the edit`, 30_000);
    // The shell command's output (the marker on a line of its own, not the command line) is readable.
    const shellCard = log.locator('.tool-call').filter({ hasText: `echo ${marker}` }).first();
    // What a command printed is the agent's own capture (Codex now and then reports it empty,
    // openai/codex#28207; Qwen drops a line under load): when the agent ran it itself, the card must show
    // the marker only if the agent sent it (the protocol trace says); a terminal of the client's always.
    const trace = protocolTrace(name);
    const clientTerminal = trace.some((m) => m.method === 'terminal/create');
    const lost = !clientTerminal && !toolCallOutputSent(trace, `echo ${marker}`).includes(marker);
    if (lost) {
      console.log(`    ${name} sent no output with "${marker}" for the shell command this time`);
    } else if (!c.noShellOutput) {
      await shellCard.waitFor({ timeout: 10_000 });
      const output = shellCard.locator('pre.terminal-output');
      await until(async () => new RegExp(`(^|\\n)${marker}(\\n|$)`).test((await output.allInnerTexts()).join('\n')), `"${marker}" in the shell card's output`, 30_000);
    }
    // The turn is over: no card of it shows running, whether or not the agent reported each call's end
    // (Codex does not always: the chat then says "No result").
    await until(async () => (await log.locator('.tool-status .codicon-modifier-spin').count()) === 0, 'no tool call shown running after the turn', 10_000);
    turned.add(id);
  }

  /** The agent's session with its whole turn shown: the one an earlier test left, else a turn run here (a test alone). */
  async function sessionWithTurn(c: AgentCase): Promise<void> {
    if (turned.has(c.recipe.id) && (await sessionTabOf(cw.chat, c.recipe.label))) return;
    await wholeTurn(c);
  }

  for (const c of CASES) {
    const id = c.recipe.id;
    const name = c.recipe.label;
    const rel = `src/${id}-e2e.js`;

    it(`${name}: a whole turn typed in the chat: streamed text, a card per tool call, the edit allowed, the shell output, the end of the turn`, async () => {
      await wholeTurn(c);
      await screenshot(cw.page, `real-${id}-turn`);
    });

    if (!c.unnamedWrites && !c.lean) it(`${name}: "Open diff" on the edit's card opens a diff editor`, async function () {
      // Room for the whole turn, when this test runs alone.
      this.timeout(2 * REAL_TURN_TIMEOUT_MS + 60_000);
      await sessionWithTurn(c);
      const page = cw.page;
      await closeAllEditors(page);
      const log = transcript(cw.chat);
      const editCard = log.locator('.tool-call').filter({ has: cw.chat.getByRole('button', { name: 'Open diff', exact: true }) }).first();
      const title = ((await editCard.locator('.tool-title').innerText()).trim());
      await button(editCard, 'Open diff').click();
      await page.locator('.part.editor .editor-group-container.active .monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
      const opened = await until(async () => (await editorTabs(page)).find((t) => t.includes(`${id}-e2e.js`) || t === title), 'the diff editor tab', 30_000);
      console.log(`    ${name} diff tab: ${opened}`);
      await screenshot(page, `real-${id}-diff`);
      await closeAllEditors(page);
    });

    it(`${name}: Undo All in the chat's changed files restores the file byte for byte`, async function () {
      // Room for the whole turn, when this test runs alone.
      this.timeout(2 * REAL_TURN_TIMEOUT_MS + 60_000);
      await sessionWithTurn(c);
      const file = workspaceFile(rel);
      const changed = cw.chat.getByRole('region', { name: 'Changed files' });
      await changed.getByText(`${id}-e2e.js`).first().waitFor({ timeout: 30_000 });
      await button(changed, 'Undo All').click();
      turned.delete(id);
      await until(() => fs.readFileSync(file).equals(Buffer.from(ORIGINAL)), `${rel} back to its original bytes`, 30_000);
      await changed.waitFor({ state: 'detached', timeout: 30_000 });
    });

    if (c.stopInChat) it(`${name}: Stop in the middle of a turn ends it; a second message in the same session completes`, async () => {
      const chat = cw.chat;
      // The agent's session an earlier test left, else one of its own.
      if (!(await sessionTabOf(chat, name))) await openSessionWith(chat, name);
      const agent = agents.get(id)!;
      const log = transcript(chat);
      const stop = button(chat, 'Stop');
      const mainBefore = agent.endpoint.mainRequests().length;
      agent.endpoint.script([{ text: 'Thinking…', hang: true }]);
      const before = await turnsEnded(chat);
      const tabCount = await tabs(chat).count();
      await sendMessage(chat, 'Take your time.');
      await agent.endpoint.waitForMainRequests(mainBefore + 1, REAL_TURN_TIMEOUT_MS);
      await until(async () => !(await stop.isDisabled()), 'Stop to be enabled', 30_000);
      await stop.click();
      const end = await waitForTurnEnd(chat, before, 60_000);
      assert.match((await end.getAttribute('class')) ?? '', /reason-cancelled/);
      await until(async () => await stop.isDisabled(), 'Stop to be disabled after the turn', 30_000);

      agent.endpoint.script([{ text: 'Thanks, second turn here.' }]);
      const second = await sendMessage(chat, 'Just say thanks.', { waitForEnd: true, timeoutMs: REAL_TURN_TIMEOUT_MS });
      assert.doesNotMatch((await second!.getAttribute('class')) ?? '', /reason-cancelled/);
      await log.getByRole('article', { name: 'Agent' }).filter({ hasText: 'Thanks, second turn here.' }).first().waitFor({ timeout: 10_000 });
      assert.strictEqual(await tabs(chat).count(), tabCount, 'the same session');
      assert.ok(await messageBox(chat).isEditable());
    });
  }

  it("each agent's session, closed from its tab, is in History after a window reload; Codex's opens again", async function () {
    // Room for a short turn of each agent, when this test runs alone.
    this.timeout(CASES.length * REAL_TURN_TIMEOUT_MS);
    const page = cw.page;
    const chat = cw.chat;
    // Each agent's session: the one its turn test left, else one of its own with a short turn.
    for (const c of CASES) {
      if (await sessionTabOf(chat, c.recipe.label)) continue;
      agents.get(c.recipe.id)!.endpoint.script([{ text: `A turn of ${c.recipe.label} for History.` }]);
      await openSessionWith(chat, c.recipe.label);
      await sendMessage(chat, 'Say something for History', { waitForEnd: true, timeoutMs: REAL_TURN_TIMEOUT_MS });
    }
    const titles = new Map<string, string>();
    /** The first line of the first and the last answer in Codex's session, to find again when it opens. */
    let codexSaid: string[] = [];
    for (const c of CASES) {
      const name = c.recipe.label;
      const tab = await sessionTabOf(chat, name);
      assert.ok(tab, `a session tab of ${name}`);
      if (c.recipe === codex) {
        const answers = transcript(chat).getByRole('article', { name: 'Agent' });
        codexSaid = [await answers.first().innerText(), await answers.last().innerText()].map((t) => t.trim().split('\n')[0]).filter(Boolean);
        assert.ok(codexSaid.length > 0, "Codex's session shows what it answered");
      }
      const title = (await tab.innerText()).trim();
      titles.set(name, title);
      const before = await tabs(chat).count();
      // Its close button (named "Close session <title>") beside the tab.
      const close = tab.locator('xpath=following-sibling::button[1]');
      assert.strictEqual(await close.getAttribute('aria-label'), `Close session ${title}`);
      await close.click();
      await until(async () => (await tabs(chat).count()) === before - 1, `the tab of ${name} to close`, 30_000);
    }
    // The window's state (the open tabs the extension keeps in its workspace memento) is written to the
    // browser's storage a moment after the change: a reload before that would bring closed tabs back.
    await until(async () => ((await persistedOpenTabs(page)) ?? []).length === 0, 'the closed tabs to be stored as closed', 30_000);
    await page.reload();
    await openChat(page);
    // The reloaded window's extension host took its agents with it: nothing with their HOMEs is left
    // (Codex's own comes back below, when its session opens again).
    for (const a of agents.values()) {
      if (a.recipe === codex) continue;
      await until(async () => (await processesWithHome(a.home)).length === 0, `no process of ${a.name} left after the window reload`, 60_000);
    }
    const history = button(chat, 'History');
    if ((await history.getAttribute('aria-expanded')) !== 'true') await history.click();
    const panel = chat.getByRole('region', { name: 'Session history' });
    for (const [name, title] of titles) {
      const entry = panel.locator('.history-item').filter({ hasText: name });
      await entry.first().waitFor({ timeout: 60_000 });
      assert.strictEqual(await entry.count(), 1, `one History entry of ${name}: ${JSON.stringify(await panel.locator('.history-item').allInnerTexts())}`);
      assert.strictEqual((await entry.locator('.history-title').innerText()).trim(), title, `${name}'s entry has its session's title`);
    }
    await screenshot(page, 'real-history');
    // Open brings Codex's transcript back in a tab.
    const codexTitle = titles.get(codex.label)!;
    const codexEntry = panel.locator('.history-item').filter({ hasText: codex.label });
    await button(codexEntry, `Open ${codexTitle}`).click();
    await until(async () => (await tabs(chat).count()) === 1, 'the session to open in a tab (Codex starts again after the reload)', 120_000);
    for (const said of codexSaid) await transcript(chat).getByRole('article', { name: 'Agent' }).filter({ hasText: said }).first().waitFor({ timeout: 30_000 });
    if ((await history.getAttribute('aria-expanded')) === 'true') await history.click();
  });
});

/** Selects the tab of `agent`'s session (the tab whose session header names the agent); returns it, if there is one. */
async function sessionTabOf(chat: FrameLocator, agent: string): Promise<Locator | undefined> {
  const status = chat.locator('.session-header .agent-status');
  for (let i = 0; i < (await tabs(chat).count()); i++) {
    const tab = tabs(chat).nth(i);
    await tab.click();
    await until(async () => (await tab.getAttribute('aria-selected')) === 'true', 'the tab to be selected', 30_000);
    if (((await status.innerText()).trim()).startsWith(`${agent} ·`)) return tab;
  }
  return undefined;
}

/**
 * Closes every session tab of the chat, and waits until the window has stored that (so the next window,
 * after a reload or in the next test file, does not bring them back).
 */
async function closeAllSessions(page: Page, chat: FrameLocator): Promise<void> {
  for (let n = await tabs(chat).count(); n > 0; n = await tabs(chat).count()) {
    await chat.locator('.tab-close').first().click();
    await until(async () => (await tabs(chat).count()) < n, 'a session tab to close', 30_000);
  }
  await until(async () => ((await persistedOpenTabs(page)) ?? []).length === 0, 'no open tab to be stored', 30_000);
}

describe('Real agents from npm in the chat: signing in to Gemini', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS + 60_000);
  let gemini: E2ERealAgent;
  let other: E2ERealAgent;
  const region = () => cw.chat.getByRole('region', { name: `Sign in to ${gemini.name}` });
  /** How often the host has handled a failed chat action so far (Switchboard's log). */
  const failedActions = () => (extensionLog().match(/Chat action "newSession" failed/g) ?? []).length;

  before(async function () {
    this.timeout(120_000);
    gemini = await prepareRealAgent(geminiRecipe, [new GeminiApi()], { permissions: 'ask', signedOut: true });
    other = await prepareRealAgent(codex, [openaiResponses], { permissions: 'auto' });
  });
  const cw = useChatWorkbench({
    name: 'realAgents-signin',
    agent: codex.label,
    noPick: true,
    settings: () => ({ 'switchboard.agents': agentsSetting([other, gemini]), 'switchboard.defaultAgent': other.name, 'switchboard.trace': 'verbose' }),
    width: 1400,
    height: 1000,
    sideBar: 640,
    onFailure: () => `--- Gemini's model endpoint log ---\n${gemini.endpoint.describeLog()}\n--- Switchboard log (tail) ---\n${extensionLog().slice(-3000)}`,
    beforeClose: (page) => closeAllSessions(page, cw.chat),
  });
  // A fresh window: no session open (sessions an earlier test or file left open are closed).
  before(() => closeAllSessions(cw.page, cw.chat));
  after(async () => {
    await gemini?.dispose();
    await other?.dispose();
  });

  it('signed out, picked with no session open: New session shows its sign-in methods in the chat, no error notification', async () => {
    const page = cw.page;
    const chat = cw.chat;
    assert.strictEqual(await tabs(chat).count(), 0, 'no session open');
    const failedBefore = failedActions();
    await selectAgent(chat, gemini.name);
    await button(chat, 'New session').click();
    await region().waitFor({ timeout: REAL_TURN_TIMEOUT_MS });
    const methods = (await region().getByRole('button').allInnerTexts()).map((t) => t.trim());
    console.log(`    Gemini's sign-in methods: ${JSON.stringify(methods)}`);
    assert.ok(methods.includes('Gemini API key'), `the API-key method is offered: ${JSON.stringify(methods)}`);
    assert.ok(methods.length >= 2, `its methods: ${JSON.stringify(methods)}`);
    assert.strictEqual(await selectedLabel(chat), gemini.name, 'the Agent picker stays on Gemini');
    assert.strictEqual(await tabs(chat).count(), 0, 'no session was opened');
    // The host has handled the failed New session (logged as waiting for sign-in), and said nothing in a
    // notification: the chat shows the methods where the user is looking.
    const line = (await until(() => {
      const lines = extensionLog().split('\n').filter((l) => l.includes('Chat action "newSession" failed'));
      return lines.length > failedBefore ? lines[lines.length - 1] : undefined;
    }, 'the host to handle the failed New session', 30_000))!;
    assert.match(line, /waiting for sign-in/, line);
    const shown = await notifications(page);
    assert.deepStrictEqual(shown.filter((t) => /Chat action|failed/i.test(t)), [], `notifications: ${JSON.stringify(shown)}`);
    await screenshot(page, 'real-signin-fresh-window');
  });

  it("picked in the Agent picker with Codex's session open: the picker stays on Gemini, its API-key method asks for the key, opens its session, and a message gets the answer", async () => {
    const page = cw.page;
    const chat = cw.chat;
    // A fresh extension host: Gemini has not been asked to sign in yet.
    await page.reload();
    await openChat(page);
    await chat.getByRole('combobox', { name: 'Agent', exact: true }).waitFor();
    await until(async () => (await region().count()) === 0, 'no sign-in region after the reload', 30_000);
    await openSessionWith(chat, other.name);
    const codexTabs = await tabs(chat).count();

    await selectAgent(chat, gemini.name);
    await region().waitFor({ timeout: REAL_TURN_TIMEOUT_MS });
    assert.strictEqual(await selectedLabel(chat), gemini.name, 'the Agent picker stays on Gemini');
    await region().getByText('Signing in starts the session.').waitFor({ timeout: 10_000 });
    assert.strictEqual(await tabs(chat).count(), codexTabs, 'no session opened yet');
    assert.strictEqual(await selectedLabel(chat), gemini.name, 'the Agent picker still shows Gemini');

    await button(region(), 'Gemini API key').click();
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill('AIzaSy-typed-into-the-e2e-input-box');
    await input.press('Enter');
    await until(async () => (await tabs(chat).count()) > codexTabs, 'the Gemini session to open in a new tab', REAL_TURN_TIMEOUT_MS);
    await until(async () => (await tabs(chat).last().getAttribute('aria-selected')) === 'true', 'the Gemini tab to be selected', 30_000);
    await chat.locator('.session-header .agent-status', { hasText: gemini.name }).waitFor({ timeout: 30_000 });
    assert.strictEqual(await selectedLabel(chat), gemini.name);
    await region().waitFor({ state: 'detached', timeout: 30_000 });

    gemini.endpoint.script([{ text: 'Hello from Gemini, signed in.' }]);
    const end = await sendMessage(chat, 'Say hello.', { waitForEnd: true, timeoutMs: REAL_TURN_TIMEOUT_MS });
    assert.doesNotMatch((await end!.getAttribute('class')) ?? '', /reason-cancelled/);
    await transcript(chat).getByRole('article', { name: 'Agent' }).filter({ hasText: 'Hello from Gemini, signed in.' }).first().waitFor({ timeout: 10_000 });
    assert.ok(gemini.endpoint.mainRequests().length > 0, 'the turn reached the endpoint');
    const shown = await notifications(page);
    assert.deepStrictEqual(shown.filter((t) => /Chat action|failed/i.test(t)), [], `notifications: ${JSON.stringify(shown)}`);
    await screenshot(page, 'real-signin-gemini-session');
  });
});
