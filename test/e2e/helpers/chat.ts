// Helpers for driving the Switchboard chat webview in the real workbench (code-server + Chromium) with the
// scripted agents in test/fixtures/agents. Everything is found by role and accessible name, as a user
// (or a screen reader) finds it: textbox "Message", buttons "Send"/"Stop"/"New session", pickers
// "Agent"/"Mode"/"Model", tool calls as groups named by their title, permission options as buttons.
import * as fs from 'fs';
import * as path from 'path';
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { activityBarItem, chatFrame, e2eEnv, openSwitchboardView } from './workbench';
import { updateSettings } from './stored';

export const REPO = path.resolve(__dirname, '..', '..', '..', '..');
export const DEMO_AGENT = 'Demo Agent';
export const FAKE_AGENT = 'Fake Agent';
const AGENTS_DIR = path.join(REPO, 'test', 'fixtures', 'agents');

/**
 * Writes `switchboard.agents` (the demo agent and the fake agent, started with this Node) and
 * `switchboard.defaultAgent` into the user settings. Call before openWorkbench(): code-server reads the
 * file when the window starts.
 */
export function configureAgents(defaultAgent: string = DEMO_AGENT, extra: Record<string, unknown> = {}): void {
  updateSettings({
    'switchboard.agents': {
      [DEMO_AGENT]: { command: process.execPath, args: [path.join(AGENTS_DIR, 'demo-agent.mjs')] },
      [FAKE_AGENT]: { command: process.execPath, args: [path.join(AGENTS_DIR, 'fake-agent.mjs')] },
    },
    'switchboard.defaultAgent': defaultAgent,
    'switchboard.trace': 'messages',
    ...extra,
  });
}

/** Absolute path of a file in the workspace the workbench has open (a temp copy of the fixture). */
export function workspaceFile(rel: string): string {
  const ws = e2eEnv().workspace;
  if (!ws) throw new Error('SWITCHBOARD_E2E_WORKSPACE is not set: run through scripts/run-e2e-tests.mjs');
  return path.join(ws, rel);
}

/** The pristine content of a fixture file (test/fixtures/workspace/<rel>). */
export function fixtureText(rel: string): string {
  return fs.readFileSync(path.join(REPO, 'test', 'fixtures', 'workspace', rel), 'utf8');
}

/** Polls `check` until it returns a truthy value; throws with `what` (and the last value/error) on timeout. */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
      last = v;
    } catch (err) {
      last = err instanceof Error ? err.message : err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what} (last: ${String(last).slice(0, 300)})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Opens the Switchboard view and waits for the chat webview's prompt box. Returns the chat frame. */
export async function openChat(page: Page): Promise<FrameLocator> {
  await openSwitchboardView(page);
  const chat = chatFrame(page);
  await chat.getByRole('textbox', { name: 'Message', exact: true }).waitFor({ state: 'visible', timeout: 90_000 });
  return chat;
}

/** The chat webview as a Playwright Frame (for evaluate()): outer webview iframe -> #active-frame. */
export async function chatFrameHandle(page: Page): Promise<Frame> {
  const outer = await page.locator('iframe.webview[src*="extensionId=switchboard-dev.switchboard"]').first().elementHandle({ timeout: 30_000 });
  const host = await outer?.contentFrame();
  if (!host) throw new Error('the chat webview host frame is not there');
  const inner = await host.locator('#active-frame').elementHandle({ timeout: 30_000 });
  const frame = await inner?.contentFrame();
  if (!frame) throw new Error('the chat webview content frame is not there');
  return frame;
}

export const messageBox = (chat: FrameLocator): Locator => chat.getByRole('textbox', { name: 'Message', exact: true });
export const button = (chat: FrameLocator | Locator, name: string): Locator => chat.getByRole('button', { name, exact: true });
export const transcript = (chat: FrameLocator): Locator => chat.getByRole('log', { name: 'Transcript' });
export const tabs = (chat: FrameLocator): Locator => chat.getByRole('tablist', { name: 'Sessions' }).getByRole('tab');
export const toolCall = (chat: FrameLocator | Locator, title: string): Locator => chat.getByRole('group', { name: title, exact: true });

/** The agent picker shows `agent` (selecting it does not start a session while none is open). */
export async function selectAgent(chat: FrameLocator, agent: string): Promise<void> {
  const picker = chat.getByRole('combobox', { name: 'Agent', exact: true });
  await picker.waitFor({ state: 'visible' });
  await until(async () => (await picker.locator('option').allTextContents()).includes(agent), `agent "${agent}" in the Agent picker`, 30_000);
  const current = await picker.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? '');
  if (current !== agent) await picker.selectOption({ label: agent });
}

/**
 * A number that grows with every finished turn (every turn ends with a turn_end item): the sequence number
 * of the newest turn_end's item id (`i<n>`), 0 before any. Not a count: the transcript is virtualized, so
 * older turn_end items leave the DOM while the newest, at the end, is always in it.
 */
export async function turnsEnded(chat: FrameLocator): Promise<number> {
  const ids = await transcript(chat).locator('.item[data-kind="turn_end"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.itemId ?? ''));
  return ids.reduce((max, id) => Math.max(max, Number(/^i(\d+)$/.exec(id)?.[1] ?? 0)), 0);
}

/**
 * Types `text` into "Message" and presses Enter (as a user does). With `waitForEnd`, resolves when the turn
 * has ended (a new turn_end item) and returns that item.
 */
export async function sendMessage(chat: FrameLocator, text: string, { waitForEnd = false, timeoutMs = 90_000 } = {}): Promise<Locator | undefined> {
  const before = await turnsEnded(chat).catch(() => 0);
  const box = messageBox(chat);
  await box.click();
  await box.fill(text);
  await box.press('Enter');
  // The composer clears once the message is taken (sent or queued).
  await until(async () => (await box.inputValue()) === '', 'the composer to take the message', 30_000);
  if (!waitForEnd) return undefined;
  return waitForTurnEnd(chat, before, timeoutMs);
}

/** Waits until more than `before` turns have ended; returns the newest turn_end item. */
export async function waitForTurnEnd(chat: FrameLocator, before: number, timeoutMs = 90_000): Promise<Locator> {
  await until(async () => (await turnsEnded(chat)) > before, 'the turn to end', timeoutMs);
  return transcript(chat).locator('.item[data-kind="turn_end"]').last().locator('.turn-end');
}

/** The status text of a tool-call card ("Pending", "Running", "Completed", "Failed", "Awaiting permission"). */
export async function toolStatus(card: Locator): Promise<string> {
  return ((await card.locator('.tool-status').first().textContent()) ?? '').trim();
}

/** Starts a fresh session with "New session"; resolves when its tab exists and is selected. */
export async function newSession(chat: FrameLocator): Promise<void> {
  const before = await tabs(chat).count();
  await button(chat, 'New session').click();
  await until(async () => (await tabs(chat).count()) > before, 'a new session tab', 60_000);
  await until(async () => (await tabs(chat).last().getAttribute('aria-selected')) === 'true', 'the new tab to be selected', 30_000);
  await until(async () => (await transcript(chat).count()) === 1, 'the transcript of the new session', 30_000);
}

/** Resizes the primary side bar by dragging its sash, so screenshots show the chat roomily. */
export async function widenSideBar(page: Page, width: number): Promise<void> {
  const bar = page.locator('.part.sidebar');
  const box = await bar.boundingBox();
  if (!box) return;
  const sashes = page.locator('.monaco-sash.vertical');
  const n = await sashes.count();
  const edge = box.x + box.width;
  for (let i = 0; i < n; i++) {
    const s = await sashes.nth(i).boundingBox();
    if (!s || Math.abs(s.x + s.width / 2 - edge) > 6 || s.height < 100) continue;
    const x = s.x + s.width / 2;
    const y = s.y + s.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + (width - box.width) / 2, y, { steps: 4 });
    await page.mouse.move(box.x + width, y, { steps: 4 });
    await page.mouse.up();
    return;
  }
}

/** The workbench's editor tab labels, in order. */
export async function editorTabs(page: Page): Promise<string[]> {
  return page.locator('.part.editor .tabs-container .tab .label-name').allTextContents();
}

/** Restores a workspace file to its fixture content (the tests share one workspace copy). */
export function restoreWorkspaceFile(rel: string): string {
  const text = fixtureText(rel);
  // Written beside the workspace and renamed over the file: VS Code's watcher never sees it truncated. A
  // plain write could be caught half-done, and an editor that loaded the empty file and was then typed
  // into keeps a stale version of the file, so its next save fails as "the file is newer".
  const target = workspaceFile(rel);
  const temp = path.join(path.dirname(e2eEnv().workspace), `.restore-${process.pid}-${path.basename(rel)}`);
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, target);
  return text;
}

/** Hides the Switchboard view (shows the Explorer): the chat webview is disposed while hidden. */
export async function hideSwitchboardView(page: Page): Promise<void> {
  await activityBarItem(page, 'Explorer').click();
  await page.locator('.part.sidebar .composite.title .title-label', { hasText: /explorer/i }).waitFor({ state: 'visible' });
}
