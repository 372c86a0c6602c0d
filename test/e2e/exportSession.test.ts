// "Switchboard: Export Session as Markdown" in the real workbench with the fake agent
// (test/fixtures/agents/fake-agent.mjs), run from the Command Palette as a user does: with no session open it
// says so and opens nothing; after a turn it opens an untitled Markdown editor with the prompt, the tool calls
// with their output and the answer, in order; a 1 MB tool output is cut and the document says what it cut.
// An image dropped on the composer is written as a line saying so, never as its data.
import * as assert from 'assert';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { chatFrameHandle, configureAgents, FAKE_AGENT, newSession, openChat, selectAgent, sendMessage, tabs, until } from './helpers/chat';
import { closeAllEditors, closeWorkbench, e2eEnv, openWorkbench, reportFailure, runCommand, saveConsole, screenshot, type Workbench } from './helpers/workbench';

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
  let wb: Workbench | undefined;
  let chat: FrameLocator;
  const page = (): Page => wb!.page;

  /** Runs the export from the palette and waits for the untitled Markdown editor it opens; returns its text. */
  async function exportSession(): Promise<string> {
    await closeAllEditors(page());
    await until(async () => (await editorTabs(page()).count()) === 0, 'no editor open before the export', 30_000);
    await runCommand(page(), EXPORT);
    await until(async () => (await editorTabs(page()).count()) === 1, 'the exported document to open in an editor', 60_000);
    await until(async () => (await languageMode(page()).innerText()).trim() === 'Markdown', 'the status bar to say Markdown', 30_000);
    const tab = editorTabs(page()).first();
    assert.match((await tab.getAttribute('class')) ?? '', /\bactive\b/, 'the exported document is the active editor');
    assert.match(await tab.innerText(), /Untitled-\d+/, 'the tab is an untitled document');
    return activeEditorText(page());
  }

  before(async () => {
    configureAgents(FAKE_AGENT);
    wb = await openWorkbench({ width: 1400, height: 900 });
    await page().context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(e2eEnv().url).origin });
    chat = await openChat(page());
    await selectAgent(chat, FAKE_AGENT);
  });

  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') await reportFailure(wb.page, `export-${this.currentTest.title}`);
  });

  after(async () => {
    if (wb) {
      saveConsole(wb, 'export-session');
      await closeAllEditors(wb.page).catch(() => {});
    }
    await closeWorkbench(wb);
  });

  it('with no session open, says so and opens nothing', async () => {
    assert.strictEqual(await tabs(chat).count(), 0, 'a fresh workbench has no session open');
    await closeAllEditors(page());
    await runCommand(page(), EXPORT);
    const notice = page()
      .locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item')
      .filter({ hasText: /no session is open to export/ })
      .first();
    await notice.waitFor({ timeout: 30_000 });
    await screenshot(page(), 'export-no-session');
    assert.strictEqual(await editorTabs(page()).count(), 0, 'no editor opened');
    await runCommand(page(), 'Notifications: Clear All Notifications');
  });

  it("opens an untitled Markdown editor with the prompt (its image as a line), the tool calls with their output and the agent's answer, in order", async () => {
    await newSession(chat);
    await dropImage(page(), chat, 'dot.png');
    await sendMessage(chat, 'raw-output', { waitForEnd: true });
    const text = await exportSession();
    await screenshot(page(), 'export-session');
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
    await newSession(chat);
    await sendMessage(chat, 'big-output 1000000', { waitForEnd: true, timeoutMs: 120_000 });
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
