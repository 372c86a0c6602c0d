// The chat moved to the secondary side bar in the real workbench, with the fake agent: the view works
// there (the session it had, a message sent and its answer), and "Open Chat in Editor" from there shows the
// same session (one session, not a second copy).
import * as assert from 'assert';
import type { FrameLocator, Page } from 'playwright-core';
import { button, FAKE_AGENT, messageBox, newSession, openChat, selectAgent, sendMessage, tabs, transcript, until } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { runCommand, screenshot } from './helpers/workbench';

const WEBVIEW = 'iframe.webview[src*="extensionId=switchboard-dev.switchboard"]';

/** Picks the row of the open quick pick whose text matches. */
async function pick(page: Page, row: RegExp): Promise<void> {
  const item = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: row }).first();
  await item.waitFor({ timeout: 30_000 });
  await item.click();
}

describe('the chat in the secondary side bar', function () {
  this.timeout(240_000);
  const selectedTitle = async (c: FrameLocator): Promise<string> => (await c.getByRole('tab', { selected: true }).innerText()).trim();

  const cw = useChatWorkbench({
    name: 'secondary-side-bar',
    agent: FAKE_AGENT,
    noPick: true,
    width: 1400,
    // The view goes back where other tests expect it.
    beforeClose: (page) => runCommand(page, 'View: Reset View Locations'),
  });

  it('works there: the session it had, a message and its answer; Open Chat in Editor keeps the session', async () => {
    let chat = await openChat(cw.page);
    await selectAgent(chat, FAKE_AGENT);
    await newSession(chat);
    await sendMessage(chat, 'before the move', { waitForEnd: true });
    await until(async () => (await selectedTitle(chat)) === 'before the move', 'the session titled after its message', 30_000);
    const sessions = await tabs(chat).count();

    // View: Move View -> the chat -> the secondary side bar.
    await runCommand(cw.page, 'View: Move View');
    await pick(cw.page, /^Chat/);
    await pick(cw.page, /Secondary Side Bar/);
    // Webviews float above the workbench's parts: the secondary side bar holds the view, the page its frame.
    const secondary = cw.page.locator('.part.auxiliarybar');
    await secondary.waitFor({ state: 'visible', timeout: 30_000 });
    await secondary.locator('.composite.title').filter({ hasText: /switchboard/i }).waitFor({ timeout: 30_000 });
    await until(async () => (await cw.page.locator(WEBVIEW).count()) === 1, 'one chat webview', 60_000);
    chat = cw.page.frameLocator(WEBVIEW).first().frameLocator('#active-frame');
    await messageBox(chat).waitFor({ timeout: 90_000 });
    await until(async () => (await selectedTitle(chat)) === 'before the move', 'the same session shown there', 30_000);
    await transcript(chat).getByText('echo: before the move').waitFor({ timeout: 30_000 });

    await sendMessage(chat, 'sent from the secondary side bar', { waitForEnd: true });
    await transcript(chat).getByText('echo: sent from the secondary side bar').waitFor({ timeout: 60_000 });
    assert.strictEqual(await tabs(chat).count(), sessions, 'the same sessions, none added');
    await screenshot(cw.page, 'chat-in-secondary-side-bar');

    await runCommand(cw.page, 'Switchboard: Open Chat in Editor');
    const editorTab = cw.page.locator('.part.editor .tabs-container .tab').filter({ hasText: 'Switchboard Chat' });
    await editorTab.waitFor({ timeout: 30_000 });
    await until(async () => (await cw.page.locator(WEBVIEW).count()) === 2, "the editor tab's webview", 60_000);
    const inEditor = cw.page.frameLocator(WEBVIEW).last().frameLocator('#active-frame');
    await messageBox(inEditor).waitFor({ timeout: 90_000 });
    await until(async () => (await selectedTitle(inEditor)) === 'before the move', 'the same session in the editor tab', 30_000);
    await transcript(inEditor).getByText('echo: sent from the secondary side bar').waitFor({ timeout: 30_000 });
    assert.strictEqual(await tabs(inEditor).count(), sessions, 'the editor tab shows the same sessions');
    // Both show one session: Stop/Send state and the next message agree.
    await sendMessage(inEditor, 'sent from the editor tab', { waitForEnd: true });
    await transcript(chat).getByText('echo: sent from the editor tab').waitFor({ timeout: 60_000 });
    await button(chat, 'Send').waitFor({ timeout: 30_000 });
  });
});
