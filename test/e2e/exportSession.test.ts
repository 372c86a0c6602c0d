// "Switchboard: Export Session as Markdown" in the real workbench with the fake agent
// (test/fixtures/agents/fake-agent.mjs), run from the Command Palette as a user does: with no session open it
// says so and opens nothing; after a turn it opens an untitled Markdown editor with the prompt, the tool calls
// with their output and the answer, in order; a 1 MB tool output is cut and the document says what it cut.
// An image dropped on the composer is written as a line saying so, never as its data.
import * as assert from 'assert';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { chatFrameHandle, FAKE_AGENT, newSession, sendMessage, tabs, until } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { closeAllEditors, runCommand, screenshot } from './helpers/workbench';

const EXPORT = 'Switchboard: Export Session as Markdown';

const editorTabs = (page: Page): Locator => page.locator('.part.editor .tabs-container .tab');
const activeEditor = (page: Page): Locator =>
  page.locator('.part.editor .editor-group-container.active .editor-instance .monaco-editor:not(.gutter)').first();
const languageMode = (page: Page): Locator => page.locator('.part.statusbar [id="status.editor.mode"]');

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Drops a PNG file on the composer, as a user drags one in; waits for its chip. */
async function dropImage(page: Page, chat: FrameLocator, name: string): Promise<void> {
  const frame = await chatFrameHandle(page);
  const dataTransfer = await frame.evaluateHandle(
    ({ file, base64 }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], file, { type: 'image/png' }));
      return dt;
    },
    { file: name, base64: PNG },
  );
  await frame.locator('.composer').dispatchEvent('drop', { dataTransfer });
  await chat.getByRole('list', { name: 'Attachments' }).getByRole('button', { name: `Remove image ${name}` }).waitFor({ timeout: 30_000 });
}

/** The whole text of the active editor, as a user gets it: Select All and Copy, read from the clipboard. */
async function activeEditorText(page: Page): Promise<string> {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await activeEditor(page).locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+C');
  return until(() => page.evaluate(() => navigator.clipboard.readText()), 'the copied editor text', 30_000);
}

/** Asserts each piece is in `text` after the one before it. */
function assertInOrder(text: string, pieces: readonly string[]): void {
  let at = 0;
  for (const piece of pieces) {
    const i = text.indexOf(piece, at);
    assert.ok(i >= 0, `missing or out of order: ${JSON.stringify(piece)} in\n${text.slice(0, 3000)}`);
    at = i + piece.length;
  }
}

describe('Export Session as Markdown', function () {
  this.timeout(240_000);
  const cw = useChatWorkbench({ name: 'export-session', agent: FAKE_AGENT, width: 1400, clipboard: true, beforeClose: closeAllEditors });

  /** Runs the export from the palette and waits for the untitled Markdown editor it opens; returns its text. */
  async function exportSession(): Promise<string> {
    await closeAllEditors(cw.page);
    await until(async () => (await editorTabs(cw.page).count()) === 0, 'no editor open before the export', 30_000);
    await runCommand(cw.page, EXPORT);
    await until(async () => (await editorTabs(cw.page).count()) === 1, 'the exported document to open in an editor', 60_000);
    await until(async () => (await languageMode(cw.page).innerText()).trim() === 'Markdown', 'the status bar to say Markdown', 30_000);
    const tab = editorTabs(cw.page).first();
    assert.match((await tab.getAttribute('class')) ?? '', /\bactive\b/, 'the exported document is the active editor');
    assert.match(await tab.innerText(), /Untitled-\d+/, 'the tab is an untitled document');
    return activeEditorText(cw.page);
  }

  it('with no session open, says so and opens nothing', async () => {
    assert.strictEqual(await tabs(cw.chat).count(), 0, 'a fresh workbench has no session open');
    await closeAllEditors(cw.page);
    await runCommand(cw.page, EXPORT);
    const notice = cw.page
      .locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item')
      .filter({ hasText: /no session is open to export/ })
      .first();
    await notice.waitFor({ timeout: 30_000 });
    await screenshot(cw.page, 'export-no-session');
    assert.strictEqual(await editorTabs(cw.page).count(), 0, 'no editor opened');
    await runCommand(cw.page, 'Notifications: Clear All Notifications');
  });

  it("opens an untitled Markdown editor with the prompt (its image as a line), the tool calls with their output and the agent's answer, in order", async () => {
    await newSession(cw.chat);
    await dropImage(cw.page, cw.chat, 'dot.png');
    await sendMessage(cw.chat, 'raw-output', { waitForEnd: true });
    const text = await exportSession();
    await screenshot(cw.page, 'export-session');
    const image = text.indexOf('*[image: image/png, 70 bytes, not exported]*');
    assert.ok(image > text.indexOf('## You') && image < text.indexOf('### Tool:'), `the image is a line in the prompt:\n${text.slice(0, 1000)}`);
    assert.ok(!text.includes(PNG.slice(0, 24)), "the image's data is not in the export");
    assertInOrder(text, [
      '# raw-output\n',
      `*Agent: ${FAKE_AGENT}`,
      '## You',
      'raw-output',
      '### Tool: Read notes.txt (read, completed)',
      '### Tool: List notes (execute, completed)',
      'raw-shell-line-1',
      'raw-shell-line-2',
      '### Tool: run_commands',
      `## ${FAKE_AGENT}`,
      'raw output done',
    ]);
    assert.ok(!text.includes('characters cut from') && !text.includes('was not kept'), 'nothing is cut from a short session');
    assert.strictEqual(text.split('raw-shell-line-2').length - 1, 1, 'a shell output sent both as text and as output is written once, as the chat shows it');
  });

  it('a 1 MB tool output is cut, and the document says what it cut', async () => {
    await newSession(cw.chat);
    await sendMessage(cw.chat, 'big-output 1000000', { waitForEnd: true, timeoutMs: 120_000 });
    const text = await exportSession();
    assert.ok(text.length < 60_000, `the export is bounded (${text.length} characters)`);
    assertInOrder(text, [
      '## You',
      'big-output 1000000',
      '### Tool: Print the big log (execute, completed)',
      '… (the start of this output was not kept; ',
      ' more characters cut from its start in the export)',
      'big-output line',
      'big-output last line',
      'Exit code 0',
      `## ${FAKE_AGENT}`,
      'big output done',
    ]);
    assert.ok(!text.includes('big-output line 0 '), 'the start of the output is not in the export, its end is');
  });
});
