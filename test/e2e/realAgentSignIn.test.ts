// Signing in to a real agent from npm in the chat (Gemini CLI, talking to its own scripted model endpoint):
// signed out, it shows its methods in the chat (no error notification), also when picked with Codex's session
// open, and its API-key method asks for the key in VS Code's input box, opens the session, and a turn completes.
import * as assert from 'assert';
import type { Page } from 'playwright-core';
import { GeminiApi } from '../fixtures/modelEndpoint/gemini';
import { openaiResponses } from '../fixtures/modelEndpoint/openaiResponses';
import { codex } from '../fixtures/realAgents/codex';
import { geminiRecipe } from '../fixtures/realAgents/gemini';
import { button, openChat, selectAgent, sendMessage, tabs, transcript, until } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { agentsSetting, extensionLog, prepareRealAgent, REAL_TURN_TIMEOUT_MS, type E2ERealAgent } from './helpers/realAgents';
import { closeAllSessions, openSessionWith, selectedLabel } from './helpers/sessionTabs';
import { screenshot } from './helpers/workbench';

/** Notifications the workbench shows (toasts and the notification center). */
async function notifications(page: Page): Promise<string[]> {
  const texts = await page.locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item').allInnerTexts();
  return texts.map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
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
