// A file plan (plan_update of type "file") from the fake agent, clicked through in the real workbench: the
// card's "Open plan" names the file by its workspace-relative path and opens it in an editor; a plan whose
// URI is relative says on its card why it cannot open, and the chat goes on.
import * as assert from 'assert';
import * as fs from 'fs';
import { pathToFileURL } from 'url';
import type { FrameLocator } from 'playwright-core';
import { button, configureAgents, editorTabs, FAKE_AGENT, newSession, openChat, selectAgent, sendMessage, transcript, until, workspaceFile } from './helpers/chat';
import { closeWorkbench, openWorkbench, reportFailure, saveConsole, type Workbench } from './helpers/workbench';

describe('File plans in the chat: Open plan', function () {
  this.timeout(180_000);
  let wb: Workbench | undefined;
  let chat: FrameLocator;
  const plan = () => workspaceFile('docs/e2e-plan.md');

  before(async () => {
    fs.mkdirSync(workspaceFile('docs'), { recursive: true });
    fs.writeFileSync(plan(), '# The e2e plan\n\n1. Open it from the chat\n');
    configureAgents(FAKE_AGENT);
    wb = await openWorkbench({ width: 1280, height: 900 });
    chat = await openChat(wb.page);
    await selectAgent(chat, FAKE_AGENT);
    await newSession(chat);
  });

  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') await reportFailure(wb.page, `plan-file-${this.currentTest.title}`);
  });

  after(async () => {
    if (wb) saveConsole(wb, 'plan-file');
    await closeWorkbench(wb);
    fs.rmSync(workspaceFile('docs'), { recursive: true, force: true });
  });

  it('"Open plan docs/e2e-plan.md" on the card opens the plan file in an editor', async () => {
    await sendMessage(chat, `plan-file p1 ${pathToFileURL(plan()).href}`, { waitForEnd: true });
    const card = transcript(chat).getByRole('group', { name: 'Plan', exact: true });
    const open = button(card, 'Open plan docs/e2e-plan.md');
    await open.waitFor({ timeout: 30_000 });
    await open.click();
    await until(async () => (await editorTabs(wb!.page)).includes('e2e-plan.md'), 'an editor tab for the plan file', 30_000);
    await wb!.page.locator('.part.editor .view-lines', { hasText: 'The e2e plan' }).first().waitFor({ timeout: 30_000 });
  });

  it('a relative plan URI: the card says why it does not open; the next message still works', async () => {
    await sendMessage(chat, 'plan-file p2 docs/e2e-plan.md', { waitForEnd: true });
    const cards = transcript(chat).getByRole('group', { name: 'Plan', exact: true });
    await until(async () => (await cards.count()) === 2, 'a second plan card', 30_000);
    const second = cards.nth(1);
    await button(second, 'Open plan docs/e2e-plan.md').click();
    const alert = second.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    assert.match(await alert.innerText(), /"docs\/e2e-plan\.md", a relative path: only an absolute file: URI can be opened/);
    assert.strictEqual(await cards.nth(0).getByRole('alert').count(), 0, 'only the card that failed');
    await sendMessage(chat, 'after the error', { waitForEnd: true });
    await transcript(chat).getByText('echo: after the error').waitFor({ timeout: 30_000 });
  });
});
