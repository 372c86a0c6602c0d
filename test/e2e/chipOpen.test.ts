// Chips open what they name, in the real workbench with the packaged VSIX and the fake agent: a selection's
// chip in the composer opens its file with those lines selected; a Source Control change's chip opens the
// Git extension's diff of the file; a terminal selection, once sent, opens from the message as a read-only
// editor holding the text the agent got. Opening sends nothing.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { button, editorTabs, FAKE_AGENT, until } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { clearChips, closeContextSettings, contextMenuItem, contextSettings, repositoryWithChange } from './helpers/contextChat';
import { e2eEnv, openSwitchboardView, runCommand } from './helpers/workbench';

const DIR = 'chipopen';
const REPO_DIR = 'chipopen-repo';
const LINES = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`);

describe('Chips open what they name: a selection at its lines, a change as a diff, terminal text read-only', function () {
  this.timeout(240_000);
  let record = '';

  const promptCount = (): number => (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter((l) => l.includes('"session/prompt"')).length : 0);
  const chips = (): Locator => cw.chat.getByRole('list', { name: 'Attachments' }).locator('li');
  const activeEditor = (page: Page): Locator => page.locator('.part.editor .editor-group-container.active .editor-instance').first();

  /** Closes the active editor (ours, saved): the chip must open it again. Other files' editors may stay open. */
  async function closeActiveEditor(page: Page, name: string): Promise<void> {
    await runCommand(page, 'View: Close Editor');
    await until(async () => !(await editorTabs(page)).includes(name), `${name} closed`, 30_000);
  }

  before(() => {
    const ws = e2eEnv().workspace!;
    record = path.join(e2eEnv().artifacts, `chipopen-record-${process.pid}.jsonl`);
    fs.rmSync(record, { force: true });
    fs.mkdirSync(path.join(ws, DIR), { recursive: true });
    fs.writeFileSync(path.join(ws, DIR, 'rows.txt'), LINES.join('\n') + '\n');
    repositoryWithChange(path.join(ws, REPO_DIR), 'changed.txt', 'same line\nbefore\n', 'same line\nafter\n');
  });
  const cw = useChatWorkbench({ name: 'chipopen', agent: FAKE_AGENT, noPick: true, width: 1400, clipboard: true, settings: () => contextSettings(record) });
  after(closeContextSettings);

  beforeEach(() => clearChips(cw.page, cw.chat));

  afterEach(async () => {
    for (let i = 0; i < 2; i++) await cw.page.keyboard.press('Escape');
  });

  it("a selection's chip opens its file with those lines selected", async () => {
    const page = cw.page;
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`${DIR}/rows.txt`);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'rows.txt' }).first().waitFor();
    await page.keyboard.press('Enter');
    await until(async () => (await editorTabs(page)).includes('rows.txt'), 'rows.txt open', 30_000);
    await activeEditor(page).locator('.view-lines').first().click();
    await page.keyboard.press('Control+G');
    await input.waitFor({ state: 'visible' });
    await input.fill(':4');
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden' });
    for (let i = 0; i < 2; i++) await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    await runCommand(page, 'Switchboard: Add to Chat');
    await openSwitchboardView(page);
    await until(async () => (await chips().allInnerTexts()).some((t) => t.trim() === 'rows.txt:4-6'), 'the chip rows.txt:4-6', 60_000);
    await activeEditor(page).locator('.view-lines').first().click();
    await closeActiveEditor(page, 'rows.txt');
    const before = promptCount();

    await cw.chat.getByRole('button', { name: 'Open rows.txt:4-6' }).click();
    await until(async () => (await editorTabs(page)).includes('rows.txt'), 'rows.txt opened by the chip', 30_000);
    // The status bar says where the cursor is and how much is selected: lines 4 to 6, to the end of line 6.
    const status = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
    await until(async () => /Ln 6, Col 6 \(\d+ selected\)/.test((await status.textContent()) ?? ''), `lines 4-6 selected (status: ${await status.textContent()})`, 30_000);
    assert.strictEqual(promptCount(), before, 'opening a chip sends nothing');
  });

  it("a Source Control change's chip opens the Git extension's diff of the file", async () => {
    const page = cw.page;
    await page.keyboard.press('Control+Shift+G');
    const row = page.locator('.scm-view .monaco-list-row', { hasText: 'changed.txt' }).first();
    await until(async () => (await row.count()) > 0, 'the change to changed.txt in Source Control', 90_000, 1000);
    await row.click({ button: 'right' });
    await contextMenuItem(page, 'Add to Chat');
    await openSwitchboardView(page);
    await until(async () => (await chips().allInnerTexts()).some((t) => t.trim() === 'changed.txt (changes)'), 'the change chip', 60_000);
    assert.ok(!(await editorTabs(page)).some((t) => /changed\.txt/.test(t)), 'no editor of changed.txt before the click');

    await cw.chat.getByRole('button', { name: 'Open changed.txt (changes)' }).click();
    await until(async () => (await editorTabs(page)).some((t) => /changed\.txt/.test(t)), 'an editor for changed.txt', 30_000);
    const diff = page.locator('.part.editor .editor-group-container.active .monaco-diff-editor');
    await diff.first().waitFor({ state: 'visible', timeout: 30_000 });
    await until(async () => /before/.test((await diff.first().locator('.editor.original .view-lines').textContent()) ?? ''), 'the committed text on the left', 30_000);
    await until(async () => /after/.test((await diff.first().locator('.editor.modified .view-lines').textContent()) ?? ''), 'the working tree on the right', 30_000);
  });

  it('a terminal selection, once sent, opens from the message as a read-only editor with its text', async () => {
    const page = cw.page;
    await runCommand(page, 'Terminal: Create New Terminal');
    const term = page.locator('.terminal-wrapper.active .xterm, .terminal .xterm').last();
    await term.waitFor({ state: 'visible', timeout: 30_000 });
    await term.click();
    const done = path.join(e2eEnv().artifacts, `chipopen-terminal-${process.pid}`);
    fs.rmSync(done, { force: true });
    await page.keyboard.type(`echo chipopen-$((40+2))-marker; touch ${done}`);
    await page.keyboard.press('Enter');
    await until(() => fs.existsSync(done), 'the command to run in the terminal', 60_000);
    await runCommand(page, 'Terminal: Select All');
    await term.click({ button: 'right' });
    await contextMenuItem(page, 'Add to Chat');
    await openSwitchboardView(page);
    await until(async () => (await chips().count()) === 1, 'the terminal chip', 60_000);
    const before = promptCount();
    await button(cw.chat, 'Send').click();
    await until(() => promptCount() > before, 'the agent to receive the prompt', 60_000);

    // The sent message shows the resource it carried; its chip opens the text.
    const sent = cw.chat.locator('button.content-chip[title^="terminal:"]').last();
    await sent.waitFor({ state: 'visible', timeout: 30_000 });
    const tab = `${decodeURIComponent(((await sent.getAttribute('title')) ?? '').replace(/^terminal:/, ''))}.txt`;
    await sent.click();
    await until(async () => (await editorTabs(page)).includes(tab), `an editor ${tab} with the terminal text`, 30_000);
    const editor = activeEditor(page);
    await until(async () => /chipopen-42-marker/.test((await editor.locator('.view-lines').textContent()) ?? ''), 'the terminal text in the editor', 30_000);
    // Read-only: typing changes nothing (VS Code says it cannot edit a read-only editor).
    await editor.locator('.view-lines').click();
    const text = await editor.locator('.view-lines').textContent();
    await page.keyboard.type('xyz');
    await until(async () => /read-only/i.test((await page.locator('.monaco-editor-overlaymessage').allTextContents()).join(' ')), 'VS Code to say the editor is read-only', 10_000);
    assert.strictEqual(await editor.locator('.view-lines').textContent(), text, 'the editor is read-only');
    assert.ok(!(await editorTabs(page)).some((t) => /^Untitled/.test(t)), 'no untitled editor that would ask to be saved');
  });
});
