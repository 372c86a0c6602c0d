// The agents people run, from npm, in the real workbench through the chat UI as a user drives it: each
// one talks to its own scripted model endpoint (127.0.0.1, started in this process). Picked in the Agent
// picker, a typed message does a whole turn: streamed text, a read, an edit allowed with the agent's own
// allow_once button, a shell command whose output shows in its card; "Open diff" on the edit opens a diff
// editor; Undo All restores the file byte for byte; Stop (with Claude) ends a hanging turn and a second
// message in the same session completes. After a window reload the session is in History.
// Kilo, Cline and Droid (agents beyond the big five) do the same turn; after the window reload none of the
// agents' processes is left (found by the HOME each was given: Cline's detached hub daemon included).
// Signing in from the chat: realAgentSignIn.test.ts.
import * as assert from 'assert';
import * as fs from 'fs';
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
import { button, editorTabs, messageBox, openChat, sendMessage, tabs, transcript, turnsEnded, until, waitForTurnEnd, workspaceFile } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { agentsSetting, persistedOpenTabs, prepareRealAgent, REAL_TURN_TIMEOUT_MS, type E2ERealAgent } from './helpers/realAgents';
import { ORIGINAL, wholeTurnInChat, type AgentCase } from './helpers/realAgentTurn';
import { closeAllSessions, openSessionWith, sessionTabOf } from './helpers/sessionTabs';
import { closeAllEditors, screenshot } from './helpers/workbench';

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

  /** The whole turn (helpers/realAgentTurn.ts), remembered so a later test of the agent can use its session. */
  async function wholeTurn(c: AgentCase): Promise<void> {
    await wholeTurnInChat(cw.chat, agents.get(c.recipe.id)!, c);
    turned.add(c.recipe.id);
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
