// Undoing a checkpoint restore in the real workbench with the fake agent: "Undo restore" on the restore's
// card brings back every file as it was before the restore (VS Code's own Ctrl+Z does not: an editor opened
// after the restore has no undo step for the files' replacement). A restore asked for as soon as the turn's
// end shows is not refused.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Page } from 'playwright-core';
import { button, configureAgents, FAKE_AGENT, newSession, openChat, selectAgent, sendMessage, transcript, widenSideBar, workspaceFile } from './helpers/chat';
import { closeWorkbench, openWorkbench, reportFailure, saveConsole, screenshot, type Workbench } from './helpers/workbench';

const DIR = 'checkpoint-undo-e2e';

describe('Checkpoints: undo a restore', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  let chat: FrameLocator;
  const page = (): Page => wb!.page;
  const file = (name: string) => workspaceFile(path.join(DIR, name));
  const read = (name: string) => (fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : null);

  before(async () => {
    fs.rmSync(workspaceFile(DIR), { recursive: true, force: true });
    fs.mkdirSync(workspaceFile(DIR), { recursive: true });
    fs.writeFileSync(file('kept.txt'), 'as the user wrote it\n');
    configureAgents(FAKE_AGENT, { 'files.autoSave': 'off' });
    wb = await openWorkbench({ width: 1400, height: 1000 });
    chat = await openChat(page());
    await widenSideBar(page(), 640);
    await selectAgent(chat, FAKE_AGENT);
    await newSession(chat);
  });

  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') await reportFailure(wb.page, `checkpoint-undo-${this.currentTest.title}`);
  });

  after(async () => {
    if (wb) saveConsole(wb, 'checkpoint-undo');
    await closeWorkbench(wb);
    fs.rmSync(workspaceFile(DIR), { recursive: true, force: true });
  });

  it('restore two turns back as soon as the turn ends, then Undo restore brings every file back as it was before the restore', async () => {
    await sendMessage(chat, `write ${file('kept.txt')} changed by the agent`, { waitForEnd: true });
    await sendMessage(chat, `write ${file('created.txt')} created by the agent`, { waitForEnd: true });
    assert.deepStrictEqual([read('kept.txt'), read('created.txt')], ['changed by the agent', 'created by the agent']);

    // At once after the end shows: not refused.
    const first = transcript(chat).getByRole('article', { name: 'You' }).first();
    await first.getByRole('button', { name: 'Restore files to before this message', exact: true }).click();
    const card = first.getByRole('group', { name: 'Checkpoint', exact: true });
    await card.getByRole('list', { name: 'Files to restore' }).waitFor({ timeout: 60_000 });
    await button(card, 'Restore').click();
    await card.getByText('Restored 2 files to before this message.').waitFor({ timeout: 60_000 });
    assert.deepStrictEqual([read('kept.txt'), read('created.txt')], ['as the user wrote it\n', null], 'the restore');

    // Undo restore, on the card: every file as it was before the restore, byte for byte.
    await button(card, 'Undo restore').click();
    await card.getByText('Restore undone: 2 files as before it.').waitFor({ timeout: 60_000 });
    await screenshot(page(), 'checkpoint-undo-restore');
    assert.deepStrictEqual([read('kept.txt'), read('created.txt')], ['changed by the agent', 'created by the agent'], 'the undo');
  });
});
