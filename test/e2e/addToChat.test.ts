// Add to Chat from the places context lives, in the real workbench with the packaged VSIX and the fake agent
// (its --record file shows what each prompt carried): lines selected in an editor (with an unsaved edit among
// them) become the chip `lines.txt:3-9` and reach the agent as exactly those lines of the live buffer with the
// range in the uri; the `Ask Fake Agent to fix` quick fix on a JSON syntax error (reported by VS Code's own
// JSON support) sends the problem with the lines around it; a folder and a file picked together in the
// Explorer; a terminal's selection; the quick fix from the Problems view's menu; a file's change in a Git
// repository the test makes, as a unified diff.
// Nothing is sent until Send is clicked.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { button, editorTabs, FAKE_AGENT, until, workspaceFile } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { clearChips, closeContextSettings, contextMenuItem, contextSettings, repositoryWithChange } from './helpers/contextChat';
import { e2eEnv, openSwitchboardView, runCommand } from './helpers/workbench';

const DIR = 'addtochat';
const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const BROKEN_JSON = '{\n  "first": 1,\n  "second": 2\n  "third": 3\n}\n';
const REPO_DIR = 'addtochat-repo';

interface Block {
  type: string;
  text?: string;
  uri?: string;
  resource?: { uri: string; text?: string; mimeType?: string };
}
interface Recorded {
  method: string;
  params?: { prompt?: Block[] };
}

describe('Add to Chat from the editor, the quick fix, the Explorer, the terminal and Source Control', function () {
  this.timeout(240_000);
  let record = '';

  const prompts = (): Block[][] =>
    fs.existsSync(record)
      ? fs
          .readFileSync(record, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Recorded)
          .filter((r) => r.method === 'session/prompt')
          .map((r) => r.params?.prompt ?? [])
      : [];
  const chips = (): Locator => cw.chat.getByRole('list', { name: 'Attachments' }).locator('li');

  /** Clicks Send and returns the prompt the agent received for it. */
  async function sendAndReceive(): Promise<Block[]> {
    const before = prompts().length;
    await button(cw.chat, 'Send').click();
    return until(() => prompts()[before], 'the agent to receive the prompt', 60_000);
  }

  /** Waits for the chips to be exactly `labels`, and checks nothing went to the agent before Send. */
  async function chipsAre(labels: string[], promptsBefore: number): Promise<void> {
    await until(async () => JSON.stringify(await chips().allInnerTexts().then((t) => t.map((s) => s.trim()))) === JSON.stringify(labels), `the chips ${labels.join(', ')}`, 60_000);
    assert.strictEqual(prompts().length, promptsBefore, 'nothing is sent before Send');
  }

  async function openFile(page: Page, rel: string): Promise<Locator> {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(rel);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(rel) }).first().waitFor();
    await page.keyboard.press('Enter');
    await until(async () => (await editorTabs(page)).some((t) => t.includes(path.basename(rel))), `${rel} open in an editor`, 30_000);
    const lines = page.locator('.part.editor .editor-group-container.active .editor-instance .monaco-editor:not(.gutter) .view-lines').first();
    await lines.waitFor({ state: 'visible' });
    return lines;
  }

  async function goToLine(page: Page, line: number): Promise<void> {
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`:${line}`);
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden' });
  }

  before(() => {
    const ws = e2eEnv().workspace!;
    record = path.join(e2eEnv().artifacts, `addtochat-record-${process.pid}.jsonl`);
    fs.rmSync(record, { force: true });
    fs.mkdirSync(path.join(ws, DIR, 'folder'), { recursive: true });
    fs.writeFileSync(path.join(ws, DIR, 'lines.txt'), LINES.join('\n') + '\n');
    fs.writeFileSync(path.join(ws, DIR, 'broken.json'), BROKEN_JSON);
    fs.writeFileSync(path.join(ws, DIR, 'folder', 'inside.txt'), 'inside\n');
    // A Git repository with a committed file, then changed in the working tree.
    repositoryWithChange(path.join(ws, REPO_DIR), 'tracked.txt', 'kept line\nold line\n', 'kept line\nnew line\n');
  });
  const cw = useChatWorkbench({
    name: 'addtochat',
    agent: FAKE_AGENT,
    noPick: true,
    width: 1400,
    clipboard: true,
    settings: () => contextSettings(record, { 'files.autoSave': 'off' }),
  });
  after(closeContextSettings);

  // Chips a failed test left behind are removed, so each test sees only its own.
  beforeEach(() => clearChips(cw.page, cw.chat));

  // Whatever menu or widget a failed step left open must not hold the next test's keys.
  afterEach(async () => {
    for (let i = 0; i < 2; i++) await cw.page.keyboard.press('Escape');
  });

  it('selected lines become the chip lines.txt:3-9 and reach the agent as exactly those lines of the unsaved buffer', async () => {
    const page = cw.page;
    const lines = await openFile(page, `${DIR}/lines.txt`);
    await lines.click();
    // An unsaved edit on line 5: the agent must get the buffer, not the disk.
    await goToLine(page, 5);
    await page.keyboard.press('End');
    await page.keyboard.type(' unsaved');
    await goToLine(page, 3);
    for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    const before = prompts().length;
    await runCommand(page, 'Switchboard: Add to Chat');
    await chipsAre(['lines.txt:3-9'], before);
    const prompt = await sendAndReceive();
    const resource = prompt.find((b) => b.type === 'resource')?.resource;
    assert.ok(resource, `a resource block in ${JSON.stringify(prompt)}`);
    assert.match(resource.uri, /\/addtochat\/lines\.txt#L3-L9$/);
    const expected = LINES.slice(2, 9).map((l) => (l === 'line 5' ? 'line 5 unsaved' : l)).join('\n');
    assert.strictEqual(resource.text, expected);
    assert.strictEqual(fs.readFileSync(workspaceFile(`${DIR}/lines.txt`), 'utf8'), LINES.join('\n') + '\n', 'the edit stays unsaved');
  });

  it('the quick fix "Ask Fake Agent to fix" on a JSON syntax error sends the problem with the lines around it', async () => {
    const page = cw.page;
    const lines = await openFile(page, `${DIR}/broken.json`);
    await lines.click();
    await until(async () => (await page.locator('.part.editor .editor-group-container.active .squiggly-error').count()) > 0, 'VS Code to report the JSON syntax error', 60_000);
    // F8 goes to the problem (the cursor on its range); Ctrl+. lists the quick fixes there.
    await page.keyboard.press('F8');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+.');
    const before = prompts().length;
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: `Ask ${FAKE_AGENT} to fix` }).first();
    await fix.waitFor({ state: 'visible', timeout: 30_000 });
    // The menu takes the keyboard (a block over the page catches clicks): move to the fix, then Enter.
    await until(async () => {
      if (((await fix.getAttribute('class')) ?? '').includes('focused')) return true;
      await page.keyboard.press('ArrowDown');
      return false;
    }, 'the quick fix to be focused', 20_000);
    await page.keyboard.press('Enter');
    await chipsAre(['broken.json:4 error'], before);
    const prompt = await sendAndReceive();
    const resource = prompt.find((b) => b.type === 'resource')?.resource;
    assert.ok(resource, `a resource block in ${JSON.stringify(prompt)}`);
    assert.match(resource.uri, /\/addtochat\/broken\.json#L4$/);
    assert.match(resource.text ?? '', /^Error( \([^)]*\))? at broken\.json:4:\d+-4:\d+: \S/);
    assert.match(resource.text ?? '', /^ 3 \| {3}"second": 2$/m, `the line before the problem in ${resource.text}`);
    assert.match(resource.text ?? '', /^>4 \| {3}"third": 3$/m, `the problem line, marked, in ${resource.text}`);
  });

  it('a folder and a file picked together in the Explorer become two chips: a folder link and the file', async () => {
    const page = cw.page;
    await runCommand(page, 'View: Show Explorer');
    const row = (name: string) => page.locator('.explorer-folders-view .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) }).first();
    await row(DIR).waitFor({ state: 'visible', timeout: 30_000 });
    if ((await row(DIR).getAttribute('aria-expanded')) !== 'true') await row(DIR).click();
    await row('folder').waitFor({ state: 'visible', timeout: 30_000 });
    await row('folder').click();
    await row('lines.txt').click({ modifiers: ['Control'] });
    await until(async () => (await row('folder').getAttribute('aria-selected')) === 'true' && (await row('lines.txt').getAttribute('aria-selected')) === 'true', 'both selected in the Explorer', 10_000);
    const before = prompts().length;
    await row('lines.txt').click({ button: 'right' });
    await contextMenuItem(page, 'Add to Chat');
    await openSwitchboardView(page);
    await chipsAre(['folder', 'lines.txt'], before);
    const prompt = await sendAndReceive();
    assert.ok(prompt.some((b) => b.type === 'resource_link' && /\/addtochat\/folder$/.test(b.uri ?? '')), `a link to the folder in ${JSON.stringify(prompt)}`);
    assert.ok(prompt.some((b) => b.type === 'resource' && /\/addtochat\/lines\.txt$/.test(b.resource?.uri ?? '')), `the file in ${JSON.stringify(prompt)}`);
  });

  it("a terminal's selection becomes a chip and reaches the agent as that text", async () => {
    const page = cw.page;
    await runCommand(page, 'Terminal: Create New Terminal');
    const term = page.locator('.terminal-wrapper.active .xterm, .terminal .xterm').last();
    await term.waitFor({ state: 'visible', timeout: 30_000 });
    await term.click();
    // The terminal draws on a canvas: the file the command touches after its echo says the output is there.
    const done = path.join(e2eEnv().artifacts, `addtochat-terminal-${process.pid}`);
    fs.rmSync(done, { force: true });
    await page.keyboard.type(`echo addtochat-$((40+2))-marker; touch ${done}`);
    await page.keyboard.press('Enter');
    await until(() => fs.existsSync(done), 'the command to run in the terminal', 60_000);
    await runCommand(page, 'Terminal: Select All');
    const before = prompts().length;
    await term.click({ button: 'right' });
    await contextMenuItem(page, 'Add to Chat');
    await openSwitchboardView(page);
    await until(async () => (await chips().count()) === 1, 'the terminal chip', 60_000);
    assert.strictEqual(prompts().length, before, 'nothing is sent before Send');
    const prompt = await sendAndReceive();
    const resource = prompt.find((b) => b.type === 'resource')?.resource;
    assert.ok(resource, `a resource block in ${JSON.stringify(prompt)}`);
    assert.match(resource.uri, /^terminal:/);
    assert.match(resource.text ?? '', /addtochat-42-marker/);
  });

  it('"Ask Fake Agent to fix" in the Problems view\'s menu adds that problem', async () => {
    const page = cw.page;
    await openFile(page, `${DIR}/broken.json`);
    await until(async () => (await page.locator('.part.editor .editor-group-container.active .squiggly-error').count()) > 0, 'VS Code to report the JSON syntax error', 60_000);
    await page.keyboard.press('Control+Shift+M');
    const marker = page.locator('.markers-panel .monaco-list-row[aria-level="2"]').first();
    await marker.waitFor({ state: 'visible', timeout: 30_000 });
    const before = prompts().length;
    // VS Code gives extensions no menu of their own there; the view lists a problem's quick fixes once it
    // has asked for them, which it does when the problem's row gets focus or the pointer rests on it, and
    // the diagnostics published again make a new row that has not asked: the focus moves to the file's row and
    // back to the problem's, and the menu opens again, until ours is in it.
    const fix = page.locator('.monaco-menu .action-item:not(.disabled) .action-label', { hasText: new RegExp(`^Ask ${FAKE_AGENT} to fix$`) }).first();
    await until(async () => {
      await marker.click();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowDown');
      await marker.click({ button: 'right' });
      const listed = await fix.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false);
      if (!listed) await page.keyboard.press('Escape');
      return listed;
    }, `"Ask ${FAKE_AGENT} to fix" in the problem's menu`, 60_000);
    await contextMenuItem(page, `Ask ${FAKE_AGENT} to fix`);
    await openSwitchboardView(page);
    await chipsAre(['broken.json:4 error'], before);
    const prompt = await sendAndReceive();
    const resource = prompt.find((b) => b.type === 'resource')?.resource;
    assert.ok(resource, `a resource block in ${JSON.stringify(prompt)}`);
    assert.match(resource.text ?? '', /^Error( \([^)]*\))? at broken\.json:4:\d+-4:\d+: \S/);
  });

  it("a Source Control change becomes a chip and reaches the agent as the file's unified diff", async () => {
    const page = cw.page;
    await page.keyboard.press('Control+Shift+G');
    const resourceRow = page.locator('.scm-view .monaco-list-row', { hasText: 'tracked.txt' }).first();
    await until(async () => (await resourceRow.count()) > 0, 'the change to tracked.txt in Source Control', 90_000, 1000);
    const before = prompts().length;
    await resourceRow.click({ button: 'right' });
    await contextMenuItem(page, 'Add to Chat');
    await openSwitchboardView(page);
    await chipsAre(['tracked.txt (changes)'], before);
    const prompt = await sendAndReceive();
    const resource = prompt.find((b) => b.type === 'resource')?.resource;
    assert.ok(resource, `a resource block in ${JSON.stringify(prompt)}`);
    assert.strictEqual(resource.mimeType, 'text/x-diff');
    assert.match(resource.text ?? '', /^-old line$/m);
    assert.match(resource.text ?? '', /^\+new line$/m);
  });
});
