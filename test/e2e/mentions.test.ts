// `@` Problems in the real workbench: a JSON file with a syntax error (VS Code's own JSON support reports
// it) is open; in the chat the user types `@prob`, picks the active file's problems under the "Problems"
// heading and sends; the agent receives them as an embedded resource, and the message shows its chip.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { editorTabs, FAKE_AGENT, messageBox, newSession, openChat, REPO, selectAgent, transcript, until, waitForTurnEnd, turnsEnded, workspaceFile } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';

interface Block {
  type: string;
  resource?: { uri: string; text?: string; mimeType?: string };
}

describe('@ Problems mention in the chat', function () {
  this.timeout(240_000);
  const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-mentions-')), 'agent.jsonl');
  const broken = () => workspaceFile('broken-settings.json');

  before(() => fs.writeFileSync(broken(), '{\n  "name": "demo",,\n  "port": 8080\n}\n'));
  const cw = useChatWorkbench({
    name: 'mentions',
    agent: FAKE_AGENT,
    noPick: true,
    settings: { 'switchboard.agents': { [FAKE_AGENT]: { command: process.execPath, args: [path.join(REPO, 'test', 'fixtures', 'agents', 'fake-agent.mjs'), `--record=${record}`] } } },
  });
  after(() => fs.rmSync(broken(), { force: true }));

  it('picks the active file\'s problems with @ and sends them; the agent gets them as a resource', async () => {
    const page = cw.page;
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('broken-settings.json');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'broken-settings.json' }).first().waitFor();
    await page.keyboard.press('Enter');
    await until(async () => (await editorTabs(page)).includes('broken-settings.json'), 'the JSON file open in an editor', 30_000);

    await openChat(page);
    await selectAgent(cw.chat, FAKE_AGENT);
    await newSession(cw.chat);
    const box = messageBox(cw.chat);
    const list = cw.chat.getByRole('listbox', { name: 'Mentions' });
    const option = list.getByRole('option').filter({ hasText: 'problems:broken-settings.json' });
    // VS Code's JSON support reports the error once its language server has read the file: ask again until the count shows.
    await until(async () => {
      await box.fill('');
      await box.pressSequentially('fix @prob', { delay: 20 });
      await option.first().waitFor({ timeout: 10_000 });
      return /[1-9]\d* in the active file/.test((await option.first().innerText()) ?? '');
    }, 'the active file\'s problems in the @ list', 120_000, 1000);
    assert.ok(await list.locator('li.sugg-group', { hasText: /^Problems$/ }).count(), 'under the "Problems" heading');
    await option.first().click();
    assert.strictEqual(await box.inputValue(), 'fix @problems:broken-settings.json ');
    const before = await turnsEnded(cw.chat);
    await box.press('Enter');
    await waitForTurnEnd(cw.chat, before, 60_000);

    const prompts = fs
      .readFileSync(record, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { method: string; params: { prompt?: Block[] } })
      .filter((m) => m.method === 'session/prompt');
    const resource = prompts[prompts.length - 1].params.prompt?.find((b) => b.type === 'resource')?.resource;
    assert.ok(resource, `the agent got a resource: ${JSON.stringify(prompts[prompts.length - 1])}`);
    assert.strictEqual(resource.mimeType, 'text/markdown');
    assert.match(resource.text ?? '', /Error at broken-settings\.json:2:\d+ \(json/, "VS Code's JSON diagnostic with its position and source");
    assert.match(resource.text ?? '', /"name": "demo",,/, 'with the line it points at');
    await transcript(cw.chat).getByRole('button', { name: 'broken-settings.json' }).first().waitFor({ timeout: 30_000 });
  });
});
