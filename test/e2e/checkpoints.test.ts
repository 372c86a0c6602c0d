// Checkpoints after a real agent's turns, in the real workbench: the real Claude agent (from npm, against
// the scripted model endpoint, permissions bypassed so it writes files itself) edits one file in a first
// turn, then creates one and edits another in a second; "Restore files to before this message" on the
// first message previews the three files, and Restore puts every file back byte for byte.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AnthropicApi } from '../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../fixtures/realAgents/claude';
import { button, selectAgent, sendMessage, tabs, transcript, turnsEnded, until, waitForTurnEnd, workspaceFile } from './helpers/chat';
import { agentsSetting, prepareRealAgent, REAL_TURN_TIMEOUT_MS, type E2ERealAgent } from './helpers/realAgents';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { screenshot } from './helpers/workbench';

const DIR = 'checkpoint-e2e';
const A = Buffer.from(`'use strict';\r\n// ü\r\nmodule.exports = { a: 1 };\r\n`);
const B = Buffer.from('first line\nsecond line\n');

describe('Checkpoints: restore the files to before a message after a real agent’s turns', function () {
  this.timeout(3 * REAL_TURN_TIMEOUT_MS);
  let claude: E2ERealAgent;
  const file = (name: string) => workspaceFile(path.join(DIR, name));

  before(async function () {
    this.timeout(180_000);
    fs.rmSync(workspaceFile(DIR), { recursive: true, force: true });
    fs.mkdirSync(workspaceFile(DIR), { recursive: true });
    fs.writeFileSync(file('a.js'), A);
    fs.writeFileSync(file('b.txt'), B);
    claude = await prepareRealAgent(claudeRecipe, [new AnthropicApi()], { permissions: 'auto' });
  });
  const cw = useChatWorkbench({
    name: 'checkpoints',
    agent: claudeRecipe.label,
    noPick: true,
    settings: () => ({ 'switchboard.agents': agentsSetting([claude]), 'files.autoSave': 'off' }),
    width: 1400,
    height: 1000,
    sideBar: 640,
    onFailure: () => `--- Claude's model endpoint log ---\n${claude.endpoint.describeLog()}`,
  });
  after(async () => {
    await claude?.dispose();
    fs.rmSync(workspaceFile(DIR), { recursive: true, force: true });
  });

  async function turn(text: string): Promise<void> {
    const before = await turnsEnded(cw.chat);
    await sendMessage(cw.chat, text);
    await waitForTurnEnd(cw.chat, before, REAL_TURN_TIMEOUT_MS);
    // The turn is over for the host too (its end snapshot taken) once Stop is disabled again.
    await until(() => button(cw.chat, 'Stop').isDisabled(), 'Stop to be disabled after the turn', 60_000);
    assert.strictEqual(claude.endpoint.remaining, 0, `every scripted step was taken:\n${claude.endpoint.describeLog()}`);
  }

  it('two turns back: the preview lists every file and Restore puts each back byte for byte', async () => {
    const count = await tabs(cw.chat).count();
    await selectAgent(cw.chat, claude.name);
    if (count === 0) await button(cw.chat, 'New session').click();
    await until(async () => (await tabs(cw.chat).count()) > count, 'a session tab for Claude', REAL_TURN_TIMEOUT_MS);

    claude.endpoint.script([
      { text: 'Reading a.js.', tools: [{ read: { path: file('a.js') } }] },
      { text: 'Editing it.', tools: [{ edit: { path: file('a.js'), oldText: 'a: 1', newText: 'a: 2, edited: true' } }] },
      { text: 'First turn done.' },
    ]);
    await turn(`Edit ${DIR}/a.js.`);
    await until(() => fs.readFileSync(file('a.js'), 'utf8').includes('edited: true'), 'Claude to edit a.js', 30_000);

    claude.endpoint.script([
      { text: 'Creating c.md.', tools: [{ write: { path: file('c.md'), content: '# Made by Claude\n' } }] },
      { text: 'Reading b.txt.', tools: [{ read: { path: file('b.txt') } }] },
      { text: 'Editing b.txt.', tools: [{ edit: { path: file('b.txt'), oldText: 'second line', newText: 'second line, edited' } }] },
      { text: 'Second turn done.' },
    ]);
    await turn(`Create ${DIR}/c.md and edit ${DIR}/b.txt.`);
    await until(() => fs.existsSync(file('c.md')) && fs.readFileSync(file('b.txt'), 'utf8').includes('edited'), 'Claude to write c.md and b.txt', 30_000);

    const first = transcript(cw.chat).getByRole('article', { name: 'You' }).first();
    await first.getByRole('button', { name: 'Restore files to before this message', exact: true }).click();
    const card = first.getByRole('group', { name: 'Checkpoint', exact: true });
    const list = card.getByRole('list', { name: 'Files to restore' });
    await list.waitFor({ timeout: 60_000 });
    const items = (await list.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).filter((t) => t.includes(`${DIR}/`));
    console.log(`    preview: ${JSON.stringify(items)}`);
    assert.deepStrictEqual(
      items.map((t) => t.split(' ')[0]),
      [`${DIR}/a.js`, `${DIR}/b.txt`, `${DIR}/c.md`],
    );
    assert.ok(items.every((t) => !/cannot be restored|You changed/.test(t)), 'all of them the agent’s, all restorable');
    await card.getByText('the conversation is not rewound', { exact: false }).waitFor({ timeout: 10_000 });
    await screenshot(cw.page, 'checkpoint-preview');

    await button(card, 'Restore').click();
    await card.getByText(/Restored \d+ files? to before this message/).waitFor({ timeout: 60_000 });
    assert.deepStrictEqual(fs.readFileSync(file('a.js')), A, 'a.js byte for byte');
    assert.deepStrictEqual(fs.readFileSync(file('b.txt')), B, 'b.txt byte for byte');
    assert.strictEqual(fs.existsSync(file('c.md')), false, 'c.md, made after the message, is gone');
    // The notice is at the end of the transcript, which renders only what is near the viewport: scroll there.
    const log = transcript(cw.chat);
    await until(
      async () => {
        await log.evaluate((el) => (el.scrollTop = el.scrollHeight));
        return log.locator('.notice').filter({ hasText: 'Files restored to before your message' }).first().isVisible();
      },
      'the notice at the end of the transcript',
      30_000,
    );
    await screenshot(cw.page, 'checkpoint-restored');
  });
});
