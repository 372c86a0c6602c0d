// Working alongside the agent, in the real workbench with the fake agent (test/fixtures/agents/fake-agent.mjs):
// a turn that ends while another session is the tab shown, or a permission request while the chat is hidden,
// raises a notification naming the agent and the session, a badge on the Switchboard icon and a status bar
// item; "Show" brings the session back and the notification goes away once the session is seen; nothing
// while the user watches it. "Retry" on a failed turn sends the prompt again; "Copy" puts a message's
// Markdown on the clipboard (pasted into an editor); "Open Chat in Editor" shows the same sessions in an
// editor tab, and a message sent there shows in the side bar too.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import {
  button,
  configureAgents,
  FAKE_AGENT,
  hideSwitchboardView,
  newSession,
  openChat,
  selectAgent,
  sendMessage,
  tabs,
  transcript,
  until,
} from './helpers/chat';
import {
  activityBarItem,
  closeAllEditors,
  closeWorkbench,
  e2eEnv,
  openSwitchboardView,
  openWorkbench,
  reportFailure,
  runCommand,
  saveConsole,
  screenshot,
  type Workbench,
} from './helpers/workbench';

/** Notifications the workbench shows now: toasts and the notification center's list. */
const notificationItems = (page: Page, text: RegExp): Locator =>
  page.locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item').filter({ hasText: text });

/** The number on the Switchboard icon's badge ('' when there is none; the view container sums its views'). */
async function badge(page: Page): Promise<string> {
  const b = activityBarItem(page, 'Switchboard').locator('.badge .badge-content');
  if ((await b.count()) === 0 || !(await b.first().isVisible())) return '';
  return ((await b.first().textContent()) ?? '').trim();
}

const statusBarWaiting = (page: Page): Locator => page.locator('.part.statusbar .statusbar-item').filter({ hasText: /waits for you/ });

describe('Attention, Retry, Copy and the chat in an editor tab', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  let chat: FrameLocator;
  let gates = 0;
  /** The gates' files, outside the workspace: a file created there during a turn would count as a changed file. */
  const gateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-gates-'));

  const page = (): Page => wb!.page;
  const selectedTitle = async (c: FrameLocator = chat): Promise<string> => (await c.getByRole('tab', { selected: true }).innerText()).trim();

  /** Sends `gate <file> [permission]` and waits until the agent waits at the gate; returns the gate's file. */
  async function turnAtGate(permission = false): Promise<string> {
    const file = path.join(gateDir, `gate-${++gates}`);
    const waiting = transcript(chat).getByText('waiting at the gate');
    const before = await waiting.count();
    await sendMessage(chat, `gate ${file}${permission ? ' permission' : ''}`);
    await until(async () => (await waiting.count()) > before, 'the agent to wait at the gate', 60_000);
    return file;
  }

  const openGate = (file: string): void => fs.writeFileSync(file, 'open');

  before(async () => {
    configureAgents(FAKE_AGENT, { 'switchboard.notifications': 'whenHidden' });
    wb = await openWorkbench({ width: 1400, height: 900 });
    await page().context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(e2eEnv().url).origin }).catch(() => {});
    chat = await openChat(page());
    await selectAgent(chat, FAKE_AGENT);
    await newSession(chat);
  });

  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') await reportFailure(wb.page, `attention-${this.currentTest.title}`);
  });

  after(async () => {
    if (wb) saveConsole(wb, 'attention');
    await closeWorkbench(wb);
    fs.rmSync(gateDir, { recursive: true, force: true });
  });

  it('no notification and no badge for a turn that ends while you watch its session', async () => {
    await sendMessage(chat, 'watched turn', { waitForEnd: true });
    // A hidden turn end would have raised it by now: the host decides before the chat shows the end.
    await transcript(chat).getByText('echo: watched turn').waitFor({ timeout: 30_000 });
    assert.strictEqual(await notificationItems(page(), /Fake Agent finished/).count(), 0);
    assert.strictEqual(await badge(page()), '');
  });

  it('a turn that ends while another session is the tab shown: notification, badge and status bar; "Show" brings its session back and clears them', async () => {
    chat = await openChat(page());
    await newSession(chat);
    const gate = await turnAtGate();
    // The session is titled after its first message (the tab shows it once the turn has ended).
    const title = `gate ${gate}`;
    // Another tab: the host made it active before the chat shows it selected.
    await newSession(chat);
    openGate(gate);
    const notice = notificationItems(page(), /Fake Agent finished in/).first();
    await notice.waitFor({ timeout: 60_000 });
    assert.match(await notice.innerText(), new RegExp(`Fake Agent finished in “${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”`));
    await until(async () => (await badge(page())) === '1', 'the badge to count one waiting session', 30_000);
    await statusBarWaiting(page()).filter({ hasText: 'Fake Agent' }).first().waitFor({ timeout: 30_000 });
    await screenshot(page(), 'attention-turn-ended');

    await notice.getByRole('button', { name: 'Show' }).or(notice.getByText('Show', { exact: true })).first().click();
    await until(async () => (await selectedTitle()) === title, 'the session that waited to be the tab shown', 30_000);
    await until(async () => (await notificationItems(page(), /Fake Agent finished in/).count()) === 0, 'the notification to go away', 30_000);
    await until(async () => (await badge(page())) === '', 'the badge to go away', 30_000);
    await until(async () => (await statusBarWaiting(page()).count()) === 0, 'the status bar to stop saying who waits', 30_000);
  });

  it('a permission request while the chat is hidden: the notification goes away when you open the chat yourself, where the request waits', async () => {
    chat = await openChat(page());
    await newSession(chat);
    const gate = await turnAtGate(true);
    await hideSwitchboardView(page());
    openGate(gate);
    const notice = notificationItems(page(), /Fake Agent asks for your permission in .*Write file/).first();
    await notice.waitFor({ timeout: 60_000 });
    await until(async () => (await badge(page())) === '1', 'the badge', 30_000);

    await openSwitchboardView(page());
    await until(async () => (await notificationItems(page(), /asks for your permission/).count()) === 0, 'the notification to go away once the session is seen', 30_000);
    await until(async () => (await badge(page())) === '', 'the badge to go away', 30_000);
    const allow = button(transcript(chat), 'Allow');
    await allow.waitFor({ timeout: 30_000 });
    await allow.click();
    await transcript(chat).getByText('allow', { exact: true }).last().waitFor({ timeout: 30_000 });
  });

  it('"Retry" on a failed turn sends the same prompt again', async () => {
    chat = await openChat(page());
    await newSession(chat);
    await sendMessage(chat, 'fail-once please retry me');
    const banner = chat.locator('.banner-error').filter({ hasText: 'model endpoint failed' });
    await banner.waitFor({ timeout: 60_000 });
    await screenshot(page(), 'attention-retry');
    await button(banner, 'Retry').click();
    await transcript(chat).getByText('retried: please retry me').waitFor({ timeout: 60_000 });
    await until(async () => (await chat.locator('.banner-error').count()) === 0, 'the error banner to go', 30_000);
  });

  it('"Copy" on a message puts its Markdown on the clipboard', async () => {
    chat = await openChat(page());
    await newSession(chat);
    await sendMessage(chat, 'copy **this** text', { waitForEnd: true });
    const answer = transcript(chat).getByRole('article', { name: 'Agent' }).filter({ hasText: 'echo: copy' }).last();
    await answer.hover();
    await button(answer, 'Copy').click();
    await chat.getByRole('status').filter({ hasText: 'Copied' }).waitFor({ timeout: 20_000 });
    await runCommand(page(), 'File: New Untitled Text File');
    const editor = page().locator('.part.editor .monaco-editor textarea').first();
    await editor.waitFor({ timeout: 30_000 });
    await editor.focus();
    await page().keyboard.press('Control+V');
    await until(
      async () => ((await page().locator('.part.editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ')).includes('echo: copy **this** text'),
      'the pasted Markdown in the editor',
      30_000,
    );
    await closeAllEditors(page());
  });

  it('"Open Chat in Editor" shows the same session; a message sent there shows in the side bar too', async () => {
    chat = await openChat(page());
    await newSession(chat);
    await sendMessage(chat, 'before the editor tab', { waitForEnd: true });
    await until(async () => (await selectedTitle()) === 'before the editor tab', 'the session titled after its message', 30_000);
    const title = await selectedTitle();
    const sideTabs = await tabs(chat).count();
    await runCommand(page(), 'Switchboard: Open Chat in Editor');
    await page().locator('.part.editor .tabs-container .tab').filter({ hasText: 'Switchboard Chat' }).waitFor({ timeout: 30_000 });
    const webviews = 'iframe.webview[src*="extensionId=switchboard-dev.switchboard"]';
    await until(async () => (await page().locator(webviews).count()) >= 2, "the editor tab's webview", 30_000);
    const inEditor = page().frameLocator(webviews).last().frameLocator('#active-frame');
    await inEditor.getByRole('textbox', { name: 'Message', exact: true }).waitFor({ timeout: 60_000 });
    await until(async () => (await tabs(inEditor).count()) === sideTabs, 'the same session tabs in the editor', 30_000);
    await until(async () => (await selectedTitle(inEditor)) === title, 'the same session selected in the editor tab', 30_000);
    await transcript(inEditor).getByText('echo: before the editor tab').waitFor({ timeout: 30_000 });

    await sendMessage(inEditor, 'sent from the editor tab', { waitForEnd: true });
    await screenshot(page(), 'attention-chat-in-editor');
    await transcript(chat).getByText('echo: sent from the editor tab').waitFor({ timeout: 60_000 });
    assert.strictEqual(await tabs(chat).count(), sideTabs, 'no second copy of the session in the side bar');
  });
});
