// A file plan (plan_update of type "file") from the fake agent, clicked through in the real workbench: the
// card's "Open plan" names the file by its workspace-relative path and opens it in an editor; a plan whose
// URI is relative says on its card why it cannot open, and the chat goes on.
import * as assert from 'assert';
import * as fs from 'fs';
import { pathToFileURL } from 'url';
import { button, editorTabs, FAKE_AGENT, sendMessage, transcript, until, workspaceFile } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';

describe('File plans in the chat: Open plan', function () {
  this.timeout(180_000);
  const plan = () => workspaceFile('docs/e2e-plan.md');

  before(() => {
    fs.mkdirSync(workspaceFile('docs'), { recursive: true });
    fs.writeFileSync(plan(), '# The e2e plan\n\n1. Open it from the chat\n');
  });
  const cw = useChatWorkbench({ name: 'plan-file', agent: FAKE_AGENT, newSession: true });
  after(() => fs.rmSync(workspaceFile('docs'), { recursive: true, force: true }));

  it('"Open plan docs/e2e-plan.md" on the card opens the plan file in an editor', async () => {
    await sendMessage(cw.chat, `plan-file p1 ${pathToFileURL(plan()).href}`, { waitForEnd: true });
    const card = transcript(cw.chat).getByRole('group', { name: 'Plan', exact: true });
    const open = button(card, 'Open plan docs/e2e-plan.md');
    await open.waitFor({ timeout: 30_000 });
    await open.click();
    await until(async () => (await editorTabs(cw.page)).includes('e2e-plan.md'), 'an editor tab for the plan file', 30_000);
    await cw.page.locator('.part.editor .view-lines', { hasText: 'The e2e plan' }).first().waitFor({ timeout: 30_000 });
  });

  it('a relative plan URI: the card says why it does not open; the next message still works', async () => {
    const cards = transcript(cw.chat).getByRole('group', { name: 'Plan', exact: true });
    const earlier = await cards.count();
    await sendMessage(cw.chat, 'plan-file p2 docs/e2e-plan.md', { waitForEnd: true });
    await until(async () => (await cards.count()) === earlier + 1, 'a plan card of its own', 30_000);
    const mine = cards.nth(earlier);
    await button(mine, 'Open plan docs/e2e-plan.md').click();
    const alert = mine.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    assert.match(await alert.innerText(), /"docs\/e2e-plan\.md", a relative path: only an absolute file: URI can be opened/);
    assert.strictEqual(await cards.getByRole('alert').count(), 1, 'only the card that failed says so');
    await sendMessage(cw.chat, 'after the error', { waitForEnd: true });
    await transcript(cw.chat).getByText('echo: after the error').waitFor({ timeout: 30_000 });
  });
});
