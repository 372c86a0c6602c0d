// The chat's session tabs as the real-agent tests handle them, as a user does: a session opened with an agent
// from the Agent picker, the tab of an agent's session found, every tab closed (and stored as closed).
import * as assert from 'assert';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { button, selectAgent, tabs, until } from './chat';
import { persistedOpenTabs, REAL_TURN_TIMEOUT_MS } from './realAgents';

/** The agent the Agent picker shows. */
export const selectedLabel = (chat: FrameLocator): Promise<string> =>
  chat.getByRole('combobox', { name: 'Agent', exact: true }).evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? '');

/**
 * Opens a session with `agent` as a user does: picks it in the Agent picker (with another agent's session
 * active that opens a session with it), or, with no session open, picks it and presses New session.
 * Resolves when the new tab is selected and the session header names the agent.
 */
export async function openSessionWith(chat: FrameLocator, agent: string): Promise<void> {
  const before = await tabs(chat).count();
  await selectAgent(chat, agent);
  if (before === 0) await button(chat, 'New session').click();
  await until(async () => (await tabs(chat).count()) > before, `a session tab for ${agent}`, REAL_TURN_TIMEOUT_MS);
  await until(async () => (await tabs(chat).last().getAttribute('aria-selected')) === 'true', 'the new tab to be selected', 30_000);
  await chat.locator('.session-header .agent-status', { hasText: agent }).waitFor({ timeout: 30_000 });
  assert.strictEqual(await selectedLabel(chat), agent, 'the Agent picker shows the agent');
}

/** Selects the tab of `agent`'s session (the tab whose session header names the agent); returns it, if there is one. */
export async function sessionTabOf(chat: FrameLocator, agent: string): Promise<Locator | undefined> {
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
export async function closeAllSessions(page: Page, chat: FrameLocator): Promise<void> {
  for (let n = await tabs(chat).count(); n > 0; n = await tabs(chat).count()) {
    await chat.locator('.tab-close').first().click();
    await until(async () => (await tabs(chat).count()) < n, 'a session tab to close', 30_000);
  }
  await until(async () => ((await persistedOpenTabs(page)) ?? []).length === 0, 'no open tab to be stored', 30_000);
}
