// Diff review in the real workbench with the demo agent's `edit` turn (a permission request carrying a diff
// of src/greet.js): the diff opens from the awaiting tool call's "Open diff" in VS Code's native diff editor,
// and the editor title's Accept / Reject actions answer the permission request — Accept lets the agent
// write the file, Reject leaves it untouched and the tool call fails. Then Undo All (Changed Files view)
// restores the file byte for byte, including the user's unsaved edits made before the agent wrote.
import * as assert from 'assert';
import * as fs from 'fs';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import {
  button,
  DEMO_AGENT,
  editorTabs,
  FAKE_AGENT,
  newSession,
  restoreWorkspaceFile,
  sendMessage,
  toolCall,
  toolStatus,
  transcript,
  turnsEnded,
  until,
  waitForTurnEnd,
  workspaceFile,
} from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { closeAllEditors, openSwitchboardView, runCommand, screenshot } from './helpers/workbench';

const EDIT_MARK = '// Edited by the Switchboard demo agent.';
const agentEdit = (text: string): string => `${text.replace(/\s*$/, '')}\n${EDIT_MARK}\n`;

/** The editor-title action with this accessible name (e.g. "Accept Change"), in the active editor group. */
function editorTitleAction(page: Page, name: string): Locator {
  return page.locator('.part.editor .editor-group-container.active').locator('.editor-actions, .title-actions').getByRole('button', { name, exact: true });
}

/**
 * The locator's match nearest the top of the page. CodeLens widgets are not in line order in the DOM:
 * VS Code first re-renders the lenses it showed the last time the file was open (its CodeLens cache)
 * and appends widgets for new lines after them.
 */
/**
 * Clicks the topmost of the elements `locator` matches, measured and clicked as one element: VS Code
 * renders CodeLenses again at any time, so an index measured first (`nth(i)`) may name the other lens by
 * the time it is clicked. A lens rendered away meanwhile is measured again.
 */
async function clickTopmost(locator: Locator): Promise<void> {
  await until(async () => {
    const handles = await locator.elementHandles();
    const tops = await Promise.all(handles.map(async (h) => (await h.boundingBox())?.y ?? Infinity));
    const top = handles[tops.indexOf(Math.min(...tops))];
    if (!top) return false;
    return top.click({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
  }, 'a click on the topmost of them');
}

/**
 * Starts the demo `edit` turn and waits for its permission request, which shows inside the tool call's
 * group (`edit`, with the diff and "Open diff"); `card` is the request's region there (the options).
 */
async function startEditTurn(chat: FrameLocator): Promise<{ edit: Locator; card: Locator; before: number }> {
  const before = await turnsEnded(chat);
  const edit = toolCall(transcript(chat), 'Edit greet.js').last();
  const card = edit.getByRole('region', { name: 'Permission: Edit greet.js' });
  await sendMessage(chat, 'edit');
  await card.waitFor({ timeout: 60_000 });
  return { edit, card, before };
}

/**
 * Opens the pending diff from the awaiting tool call's "Open diff"; waits for the native diff editor. The
 * pending review's diff editor is titled "greet.js (Proposed by Agent)" (src/host/diff/review/diffOpener.ts
 * proposalTitle); only that one carries Accept/Reject in its title (context key switchboard.diffPending).
 */
async function openPendingDiff(page: Page, edit: Locator): Promise<void> {
  await button(edit, 'Open diff').click();
  await until(async () => (await editorTabs(page)).some((t) => /greet\.js/.test(t)), 'a diff editor for greet.js', 30_000);
  await page.locator('.part.editor .editor-group-container.active .monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
  const tabs = await editorTabs(page);
  assert.ok(
    tabs.includes('greet.js (Proposed by Agent)'),
    `"Open diff" on the awaiting tool call should open the pending change for review (tab "greet.js (Proposed by Agent)" with Accept/Reject in the editor title); the editor tabs are ${JSON.stringify(tabs)}`,
  );
}

/** A clean start for each test: a new session, no editors open. */
async function freshStart(page: Page, chat: FrameLocator): Promise<void> {
  await closeAllEditors(page);
  await openSwitchboardView(page);
  await newSession(chat);
}

describe('Diff review: Accept / Reject in the editor title, Undo All', function () {
  this.timeout(240_000);
  let original = '';
  const greet = () => workspaceFile('src/greet.js');

  before(() => {
    original = restoreWorkspaceFile('src/greet.js');
  });
  const cw = useChatWorkbench({ name: 'diffReview', agent: DEMO_AGENT, settings: { 'files.autoSave': 'off' }, width: 1400, height: 1000 });

  it('Accept in the diff editor title answers the permission: the edit is written', async () => {
    const page = cw.page;
    await freshStart(page, cw.chat);
    const { edit, before } = await startEditTurn(cw.chat);
    assert.strictEqual(fs.readFileSync(greet(), 'utf8'), original, 'nothing is written before the answer');
    await openPendingDiff(page, edit);
    const accept = editorTitleAction(page, 'Accept Change');
    await accept.waitFor({ state: 'visible', timeout: 20_000 });
    await editorTitleAction(page, 'Reject Change').waitFor({ state: 'visible' });
    await screenshot(page, 'diff-review-pending');
    await accept.click();
    const written = await until(() => {
      const t = fs.readFileSync(greet(), 'utf8');
      return t !== original ? t : undefined;
    }, 'the accepted edit on disk', 60_000);
    assert.strictEqual(written, agentEdit(original));
    await waitForTurnEnd(cw.chat, before, 60_000);
    await openSwitchboardView(page);
    const log = transcript(cw.chat);
    assert.strictEqual(await toolStatus(toolCall(log, 'Edit greet.js').last()), 'Completed');
    assert.strictEqual(await log.getByRole('region', { name: 'Permission: Edit greet.js' }).count(), 0, 'the card is gone');
    // The pending diff editor closed with the answer.
    await until(async () => (await editorTitleAction(page, 'Accept Change').count()) === 0, 'the Accept action to go away', 20_000);
  });

  it('Reject in the diff editor title answers the permission: the file is untouched, the tool call fails', async () => {
    const page = cw.page;
    await freshStart(page, cw.chat);
    const onDisk = fs.readFileSync(greet());
    const { edit, before } = await startEditTurn(cw.chat);
    await openPendingDiff(page, edit);
    const reject = editorTitleAction(page, 'Reject Change');
    await reject.waitFor({ state: 'visible', timeout: 20_000 });
    await reject.click();
    await waitForTurnEnd(cw.chat, before, 60_000);
    await openSwitchboardView(page);
    await until(async () => (await toolStatus(edit)) === 'Failed', 'the rejected tool call to show Failed', 30_000);
    await edit.getByText('The edit was not allowed.').waitFor();
    assert.ok(fs.readFileSync(greet()).equals(onDisk), 'src/greet.js is byte for byte what it was');
  });

  it('Accept from the command palette ("Switchboard: Accept Change") with the pending diff open', async () => {
    const page = cw.page;
    await freshStart(page, cw.chat);
    // greet.js holds the edit accepted earlier, on disk and in VS Code's model alike: the agent edits on
    // top of it. (Restoring it on disk here would race VS Code's reload of its model, and the product then
    // rightly refuses to overwrite what it takes for the user's change.)
    const base = fs.readFileSync(greet(), 'utf8');
    const { edit, before } = await startEditTurn(cw.chat);
    await openPendingDiff(page, edit);
    // The palette lists the command only once the pending-diff context key is set (the title actions show it).
    await editorTitleAction(page, 'Accept Change').waitFor({ state: 'visible', timeout: 20_000 });
    await runCommand(page, 'Switchboard: Accept Change');
    await until(() => fs.readFileSync(greet(), 'utf8') === agentEdit(base), 'the accepted edit on disk', 60_000);
    await waitForTurnEnd(cw.chat, before, 60_000);
  });

  it('Undo All restores the file byte for byte, including unsaved edits made before the agent wrote', async () => {
    const page = cw.page;
    await freshStart(page, cw.chat);
    restoreWorkspaceFile('src/greet.js');
    // The user opens greet.js and types a line without saving.
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('greet.js');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'greet.js' }).first().waitFor();
    await page.keyboard.press('Enter');
    await until(async () => (await editorTabs(page)).includes('greet.js'), 'greet.js open in an editor', 30_000);
    const lines = page.locator('.part.editor .editor-group-container.active .editor-instance .monaco-editor:not(.gutter) .view-lines').first();
    await lines.waitFor({ state: 'visible' });
    // VS Code reloads its model of greet.js from disk asynchronously after the restore above: wait for the
    // whole file, so the user types into the restored text and not into a model VS Code has yet to reload.
    // (Compared without white space: Monaco renders empty lines and spaces its own way.)
    const bare = (t: string) => t.replace(/[\s\u00a0]+/g, '');
    await until(async () => bare(await lines.innerText()) === bare(original), 'the editor to show the restored file', 30_000);
    await lines.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('const userNote = 1;');
    await page.keyboard.press('Enter');
    await until(async () => (await page.locator('.part.editor .tabs-container .tab.dirty').count()) > 0, 'the editor to be dirty', 20_000);
    const userText = `const userNote = 1;\n${original}`;
    await page.waitForTimeout(1500);
    assert.strictEqual(fs.readFileSync(greet(), 'utf8'), original, 'the user edit is not saved');

    // The agent edits the live buffer (it reads the unsaved text) and the user allows it in the chat.
    await openSwitchboardView(page);
    const { edit, card, before } = await startEditTurn(cw.chat);
    assert.match(await edit.innerText(), /Edited by the Switchboard demo agent/);
    await button(card, 'Allow').click();
    await waitForTurnEnd(cw.chat, before, 60_000);
    await until(() => fs.readFileSync(greet(), 'utf8') === agentEdit(userText), 'the agent\'s edit (on top of the user\'s) on disk', 60_000);

    // Undo All from the Changed Files view's title (or the palette).
    await runCommand(page, 'Switchboard: Undo All Changes');
    // Nothing of the user's may be lost: the buffer holds the user's text again. Save it and compare bytes.
    await until(async () => {
      // Monaco renders spaces as U+00A0.
      const text = (await lines.innerText()).replace(/\u00a0/g, ' ');
      return !text.includes('Edited by the Switchboard demo agent') && text.includes('const userNote = 1;');
    }, 'the editor to show the text before the agent wrote', 30_000);
    await runCommand(page, 'File: Save');
    const restored: string = await until(() => {
      const t = fs.readFileSync(greet(), 'utf8');
      return t.includes(EDIT_MARK) ? '' : t;
    }, 'the undone file on disk', 30_000);
    assert.ok(Buffer.from(restored).equals(Buffer.from(userText)), `byte for byte: ${JSON.stringify(restored.slice(0, 80))}…`);
    await screenshot(page, 'diff-review-undo-all');
    await closeAllEditors(page);
  });

  it('rejecting one hunk in the editor keeps the others', async () => {
    const page = cw.page;
    await freshStart(page, cw.chat);
    // src/main.js, which no other test edits: only this turn's hunks show, whatever ran before.
    const main = () => workspaceFile('src/main.js');
    const base = restoreWorkspaceFile('src/main.js');
    const firstLine = base.split('\n')[0];
    // The demo agent's `edit2` changes two places: a comment on line 1, a line appended at the end.
    const before = await turnsEnded(cw.chat);
    const card = toolCall(transcript(cw.chat), 'Edit main.js').last().getByRole('region', { name: 'Permission: Edit main.js' });
    await sendMessage(cw.chat, 'edit2 src/main.js');
    await card.waitFor({ timeout: 60_000 });
    await button(card, 'Allow').click();
    await waitForTurnEnd(cw.chat, before, 60_000);
    await until(() => fs.readFileSync(main(), 'utf8').includes('// Checked by the demo agent.'), 'the two-hunk edit on disk', 60_000);

    // Open main.js: each of the agent's hunks carries Keep / Undo CodeLenses.
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('main.js');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'main.js' }).first().waitFor();
    await page.keyboard.press('Enter');
    await until(async () => (await editorTabs(page)).includes('main.js'), 'main.js open in an editor', 30_000);
    const undoLenses = page.locator('.part.editor .editor-group-container.active .codelens-decoration a', { hasText: 'Undo' });
    await until(async () => (await undoLenses.count()) === 2, 'an Undo CodeLens on each of the 2 hunks', 30_000);
    await clickTopmost(undoLenses);
    // The file was clean, so the hunk's Undo saves it (no save of ours needed).
    const result: string = await until(() => {
      const t = fs.readFileSync(main(), 'utf8');
      return t.includes('// Checked by the demo agent.') ? '' : t;
    }, 'the first hunk undone on disk', 30_000);
    assert.strictEqual(result.split('\n')[0], firstLine, 'line 1 is back to what it was');
    assert.ok(result.includes(EDIT_MARK), 'the other hunk (the appended line) is kept');
    // Undoing one of the agent's hunks is not an edit of the user's: the entry is not "edited since".
    // The Changed Files view starts collapsed (the chat keeps the room): expand it.
    const header = page.locator('.part.sidebar .pane-header', { hasText: /changed files/i }).first();
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await page.getByRole('treeitem', { name: 'main.js, modified, 1 added, 0 removed lines', exact: true }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'diff-review-hunk-undone');
    await closeAllEditors(page);
  });
});

describe('Diff review: files the agent writes with its own tools', function () {
  this.timeout(240_000);
  const cw = useChatWorkbench({ name: 'diffReviewSelfWrites', agent: FAKE_AGENT, settings: { 'files.autoSave': 'off' }, width: 1400, height: 1000 });

  it('Undo All in the chat reverts files the agent wrote itself without naming them, byte for byte', async () => {
    const page = cw.page;
    await freshStart(page, cw.chat);
    // The fake agent's `self-write` edits, creates, deletes and renames files in this folder at once,
    // with no tool call naming any of them.
    const rel = `self-write-e2e-${Date.now()}`;
    const dir = workspaceFile(rel);
    const files: Record<string, Buffer> = {
      'edit.txt': Buffer.from('line 1\r\nline 2\r\n'),
      'gone.txt': Buffer.from('deleted by the agent\n'),
      'old-name.txt': Buffer.from('renamed by the agent\n'),
      'echo.txt': Buffer.from('echo before\n'),
      'echo.next.txt': Buffer.from('echo after\n'),
    };
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(`${dir}/${name}`, bytes);
    const before = await turnsEnded(cw.chat);
    await sendMessage(cw.chat, `self-write ${rel}`);
    await waitForTurnEnd(cw.chat, before, 60_000);
    const changed = cw.chat.getByRole('region', { name: 'Changed files' });
    for (const name of ['created.txt', 'echo.txt', 'edit.txt', 'gone.txt', 'new-name.txt', 'old-name.txt']) {
      await changed.getByText(name).first().waitFor({ timeout: 30_000 });
    }
    await screenshot(page, 'diff-review-self-writes');
    await button(changed, 'Undo All').click();
    await until(
      () => Object.entries(files).every(([name, bytes]) => fs.existsSync(`${dir}/${name}`) && fs.readFileSync(`${dir}/${name}`).equals(bytes)),
      'every file back to its bytes before the turn',
      30_000,
    );
    await until(() => !fs.existsSync(`${dir}/created.txt`) && !fs.existsSync(`${dir}/new-name.txt`), 'the files the agent made to be gone', 30_000);
    await changed.waitFor({ state: 'detached', timeout: 30_000 });
  });
});
