// Undoing a checkpoint restore in the real workbench with the fake agent: "Undo restore" on the restore's
// card brings back every file as it was before the restore (VS Code's own Ctrl+Z does not: an editor opened
// after the restore has no undo step for the files' replacement). A restore asked for as soon as the turn's
// end shows is not refused.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { button, FAKE_AGENT, sendMessage, transcript, workspaceFile } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { screenshot } from './helpers/workbench';

const DIR = 'checkpoint-undo-e2e';

describe('Checkpoints: undo a restore', function () {
  this.timeout(240_000);
  const file = (name: string) => workspaceFile(path.join(DIR, name));
  const read = (name: string) => (fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : null);

  before(() => {
    fs.rmSync(workspaceFile(DIR), { recursive: true, force: true });
    fs.mkdirSync(workspaceFile(DIR), { recursive: true });
    fs.writeFileSync(file('kept.txt'), 'as the user wrote it\n');
  });
  const cw = useChatWorkbench({ name: 'checkpoint-undo', agent: FAKE_AGENT, settings: { 'files.autoSave': 'off' }, width: 1400, height: 1000, sideBar: 640, newSession: true });
  after(() => fs.rmSync(workspaceFile(DIR), { recursive: true, force: true }));

  it('restore two turns back as soon as the turn ends, then Undo restore brings every file back as it was before the restore', async () => {
    await sendMessage(cw.chat, `write ${file('kept.txt')} changed by the agent`, { waitForEnd: true });
    await sendMessage(cw.chat, `write ${file('created.txt')} created by the agent`, { waitForEnd: true });
    assert.deepStrictEqual([read('kept.txt'), read('created.txt')], ['changed by the agent', 'created by the agent']);

    // At once after the end shows: not refused.
    const first = transcript(cw.chat).getByRole('article', { name: 'You' }).first();
    await first.getByRole('button', { name: 'Restore files to before this message', exact: true }).click();
    const card = first.getByRole('group', { name: 'Checkpoint', exact: true });
    await card.getByRole('list', { name: 'Files to restore' }).waitFor({ timeout: 60_000 });
    await button(card, 'Restore').click();
    await card.getByText('Restored 2 files to before this message.').waitFor({ timeout: 60_000 });
    assert.deepStrictEqual([read('kept.txt'), read('created.txt')], ['as the user wrote it\n', null], 'the restore');

    // Undo restore, on the card: every file as it was before the restore, byte for byte.
    await button(card, 'Undo restore').click();
    await card.getByText('Restore undone: 2 files as before it.').waitFor({ timeout: 60_000 });
    await screenshot(cw.page, 'checkpoint-undo-restore');
    assert.deepStrictEqual([read('kept.txt'), read('created.txt')], ['changed by the agent', 'created by the agent'], 'the undo');
  });
});
