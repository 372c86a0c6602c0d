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
  FAKE_AGENT,
  hideSwitchboardView,
  newSession,
  openChat,
  sendMessage,
  tabs,
  transcript,
  until,
} from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { activityBarItem, closeAllEditors, openSwitchboardView, runCommand, screenshot } from './helpers/workbench';

/** Notifications the workbench shows now: toasts and the notification center's list. */
const notificationItems = (page: Page, text: RegExp): Locator =>
  page.locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item').filter({ hasText: text });

/** The number on the Switchboard icon's badge ('' when there is none; the view container sums its views'). */
async function badge(page: Page): Promise<string> {
  const b = activityBarItem(page, 'Switchboard').locator('.badge .badge-content');
  if ((await b.count()) === 0 || !(await b.first().isVisible())) return '';
  return ((await b.first().textContent()) ?? '').trim();
}

/** An XPath test for an element with the class `name`. */
const hasClass = (name: string): string => `contains(concat(' ', normalize-space(@class), ' '), ' ${name} ')`;

const statusBarWaiting = (page: Page): Locator => page.locator('.part.statusbar .statusbar-item').filter({ hasText: /waits for you/ });

describe('Attention, Retry, Copy and the chat in an editor tab', function () {
  this.timeout(240_000);
  let gates = 0;
  /** The gates' files, outside the workspace: a file created there during a turn would count as a changed file. */
  const gateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-gates-'));

  const selectedTitle = async (c: FrameLocator = cw.chat): Promise<string> => (await c.getByRole('tab', { selected: true }).innerText()).trim();

  /** Sends `gate <file> [permission]` and waits until the agent waits at the gate; returns the gate's file. */
  async function turnAtGate(permission = false): Promise<string> {
    const file = path.join(gateDir, `gate-${++gates}`);
    const waiting = transcript(cw.chat).getByText('waiting at the gate');
    const before = await waiting.count();
    await sendMessage(cw.chat, `gate ${file}${permission ? ' permission' : ''}`);
    await until(async () => (await waiting.count()) > before, 'the agent to wait at the gate', 60_000);
    return file;
  }

  const openGate = (file: string): void => fs.writeFileSync(file, 'open');

  const cw = useChatWorkbench({
    name: 'attention',
    agent: FAKE_AGENT,
    settings: { 'switchboard.notifications': 'whenHidden' },
    width: 1400,
    clipboard: true,
    newSession: true,
  });
  after(() => fs.rmSync(gateDir, { recursive: true, force: true }));

  it('no notification and no badge for a turn that ends while you watch its session', async () => {
    await sendMessage(cw.chat, 'watched turn', { waitForEnd: true });
    // A hidden turn end would have raised it by now: the host decides before the chat shows the end.
    await transcript(cw.chat).getByText('echo: watched turn').waitFor({ timeout: 30_000 });
    assert.strictEqual(await notificationItems(cw.page, /Fake Agent finished/).count(), 0);
    assert.strictEqual(await badge(cw.page), '');
  });

  it('a turn that ends while another session is the tab shown: notification, badge and status bar; "Show" brings its session back and clears them', async () => {
    await openChat(cw.page);
    await newSession(cw.chat);
    const gate = await turnAtGate();
    // The session is titled after its first message (the tab shows it once the turn has ended).
    const title = `gate ${gate}`;
    // Another tab: the host made it active before the chat shows it selected.
    await newSession(cw.chat);
    openGate(gate);
    const notice = notificationItems(cw.page, /Fake Agent finished in/).first();
    await notice.waitFor({ timeout: 60_000 });
    assert.match(await notice.innerText(), new RegExp(`Fake Agent finished in “${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”`));
    // A notice, not a task in progress: its toast's bar is a determinate one at 0 % (VS Code draws a 1 % sliver),
    // not the endless bar it animates every frame while a notification shows progress.
    const bar = notice.locator(`xpath=ancestor::*[${hasClass('notification-toast')}]//*[${hasClass('monaco-progress-container')}]`);
    await until(async () => /\bdiscrete\b/.test((await bar.getAttribute('class')) ?? ''), 'the notice to show no endless progress bar', 10_000);
    assert.doesNotMatch((await bar.getAttribute('class')) ?? '', /\binfinite\b/);
    await until(async () => (await badge(cw.page)) === '1', 'the badge to count one waiting session', 30_000);
    await statusBarWaiting(cw.page).filter({ hasText: 'Fake Agent' }).first().waitFor({ timeout: 30_000 });
    await screenshot(cw.page, 'attention-turn-ended');

    await notice.getByRole('button', { name: 'Show' }).or(notice.getByText('Show', { exact: true })).first().click();
    await until(async () => (await selectedTitle()) === title, 'the session that waited to be the tab shown', 30_000);
    await until(async () => (await notificationItems(cw.page, /Fake Agent finished in/).count()) === 0, 'the notification to go away', 30_000);
    await until(async () => (await badge(cw.page)) === '', 'the badge to go away', 30_000);
    await until(async () => (await statusBarWaiting(cw.page).count()) === 0, 'the status bar to stop saying who waits', 30_000);
  });

  it('a permission request while the chat is hidden: the notification goes away when you open the chat yourself, where the request waits', async () => {
    await openChat(cw.page);
    await newSession(cw.chat);
    const gate = await turnAtGate(true);
    await hideSwitchboardView(cw.page);
    openGate(gate);
    const notice = notificationItems(cw.page, /Fake Agent asks for your permission in .*Write file/).first();
    await notice.waitFor({ timeout: 60_000 });
    await until(async () => (await badge(cw.page)) === '1', 'the badge', 30_000);

    await openSwitchboardView(cw.page);
    await until(async () => (await notificationItems(cw.page, /asks for your permission/).count()) === 0, 'the notification to go away once the session is seen', 30_000);
    await until(async () => (await badge(cw.page)) === '', 'the badge to go away', 30_000);
    const allow = button(transcript(cw.chat), 'Allow');
    await allow.waitFor({ timeout: 30_000 });
    await allow.click();
    await transcript(cw.chat).getByText('allow', { exact: true }).last().waitFor({ timeout: 30_000 });
  });

  it('"Retry" on a failed turn sends the same prompt again', async () => {
    await openChat(cw.page);
    await newSession(cw.chat);
    await sendMessage(cw.chat, 'fail-once please retry me');
    const banner = cw.chat.locator('.banner-error').filter({ hasText: 'model endpoint failed' });
    await banner.waitFor({ timeout: 60_000 });
    await screenshot(cw.page, 'attention-retry');
    await button(banner, 'Retry').click();
    await transcript(cw.chat).getByText('retried: please retry me').waitFor({ timeout: 60_000 });
    await until(async () => (await cw.chat.locator('.banner-error').count()) === 0, 'the error banner to go', 30_000);
  });

  it('"Copy" on a message puts its Markdown on the clipboard', async () => {
    await openChat(cw.page);
    await newSession(cw.chat);
    await sendMessage(cw.chat, 'copy **this** text', { waitForEnd: true });
    const answer = transcript(cw.chat).getByRole('article', { name: 'Agent' }).filter({ hasText: 'echo: copy' }).last();
    await answer.hover();
    await button(answer, 'Copy').click();
    await cw.chat.getByRole('status').filter({ hasText: 'Copied' }).waitFor({ timeout: 20_000 });
    await runCommand(cw.page, 'File: New Untitled Text File');
    const editor = cw.page.locator('.part.editor .monaco-editor textarea').first();
    await editor.waitFor({ timeout: 30_000 });
    await editor.focus();
    await cw.page.keyboard.press('Control+V');
    await until(
      async () => ((await cw.page.locator('.part.editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ')).includes('echo: copy **this** text'),
      'the pasted Markdown in the editor',
      30_000,
    );
    await closeAllEditors(cw.page);
  });

  it('"Open Chat in Editor" shows the same session; a message sent there shows in the side bar too', async () => {
    await openChat(cw.page);
    await newSession(cw.chat);
    await sendMessage(cw.chat, 'before the editor tab', { waitForEnd: true });
    await until(async () => (await selectedTitle()) === 'before the editor tab', 'the session titled after its message', 30_000);
    const title = await selectedTitle();
    const sideTabs = await tabs(cw.chat).count();
    await runCommand(cw.page, 'Switchboard: Open Chat in Editor');
    await cw.page.locator('.part.editor .tabs-container .tab').filter({ hasText: 'Switchboard Chat' }).waitFor({ timeout: 30_000 });
    const webviews = 'iframe.webview[src*="extensionId=switchboard-dev.switchboard"]';
    await until(async () => (await cw.page.locator(webviews).count()) >= 2, "the editor tab's webview", 30_000);
    const inEditor = cw.page.frameLocator(webviews).last().frameLocator('#active-frame');
    await inEditor.getByRole('textbox', { name: 'Message', exact: true }).waitFor({ timeout: 60_000 });
    await until(async () => (await tabs(inEditor).count()) === sideTabs, 'the same session tabs in the editor', 30_000);
    await until(async () => (await selectedTitle(inEditor)) === title, 'the same session selected in the editor tab', 30_000);
    await transcript(inEditor).getByText('echo: before the editor tab').waitFor({ timeout: 30_000 });

    await sendMessage(inEditor, 'sent from the editor tab', { waitForEnd: true });
    await screenshot(cw.page, 'attention-chat-in-editor');
    await transcript(cw.chat).getByText('echo: sent from the editor tab').waitFor({ timeout: 60_000 });
    assert.strictEqual(await tabs(cw.chat).count(), sideTabs, 'no second copy of the session in the side bar');
  });
});
