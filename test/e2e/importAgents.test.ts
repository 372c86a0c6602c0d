// "Switchboard: Import Agents from Zed or JetBrains…" in the real workbench: a Zed settings.json entry with
// `default_mode` and `default_model` is written into switchboard.agents with them, and a session of the
// imported agent starts in that mode and model.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { configureAgents, FAKE_AGENT, newSession, REPO, selectAgent, until, workspaceFile } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { e2eEnv, runCommand } from './helpers/workbench';
import { settingsText } from './helpers/stored';

const IMPORTED = 'Zed Fake';

/** The imported agent's entry in the user or Remote settings, once VS Code has written it. */
function importedEntry(): Record<string, unknown> | undefined {
  for (const scope of ['User', 'Machine']) {
    try {
      const settings = JSON.parse(fs.readFileSync(path.join(e2eEnv().userDataDir, scope, 'settings.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
      const entry = settings['switchboard.agents']?.[IMPORTED];
      if (entry) return entry as Record<string, unknown>;
    } catch {
      /* not written yet, or being written */
    }
  }
  return undefined;
}

describe('Import Agents from Zed: session defaults', function () {
  this.timeout(180_000);
  const zedFile = () => workspaceFile('zed-import/settings.json');

  before(() => {
    fs.mkdirSync(path.dirname(zedFile()), { recursive: true });
    const entry = { command: process.execPath, args: [path.join(REPO, 'test', 'fixtures', 'agents', 'fake-agent.mjs')], default_mode: 'plan', default_model: 'smart' };
    fs.writeFileSync(zedFile(), `// Zed settings\n{\n  "agent_servers": ${JSON.stringify({ [IMPORTED]: entry })},\n}\n`);
  });
  const cw = useChatWorkbench({ name: 'import-agents', agent: FAKE_AGENT, noPick: true });
  after(() => {
    fs.rmSync(path.dirname(zedFile()), { recursive: true, force: true });
    configureAgents(FAKE_AGENT);
  });

  it('writes default_mode and default_model into switchboard.agents, and the imported agent starts with them', async () => {
    const page = cw.page;
    await runCommand(page, 'Switchboard: Import Agents from Zed or JetBrains…');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Choose a file…' }).first().click();
    // VS Code's own file dialog in a remote window: a path typed into its input.
    const input = page.locator('.quick-input-widget input');
    await until(async () => (await input.inputValue().catch(() => '')).startsWith('/'), 'the file dialog', 30_000);
    await input.fill(zedFile());
    // The dialog lists the file's folder once it has read the path; OK then takes the typed file. While it
    // is still reading its first folder it ignores OK, and when that read ends it can put the folder back in
    // the input over the typed path: as long as the dialog is open, the path is typed again where it was
    // replaced and OK pressed again.
    const ok = page.locator('.quick-input-widget').getByRole('button', { name: 'OK', exact: true });
    const written = (await until(
      async () => {
        const entry = importedEntry();
        if (!entry && (await ok.isVisible().catch(() => false))) {
          if ((await input.inputValue().catch(() => zedFile())) !== zedFile()) await input.fill(zedFile()).catch(() => undefined);
          await page.locator('.quick-input-list .monaco-list-row', { hasText: 'settings.json' }).first().waitFor({ timeout: 5_000 }).catch(() => undefined);
          await ok.click({ timeout: 5_000 }).catch(() => undefined);
        }
        return entry;
      },
      'the imported agent in the settings',
      60_000,
      1_000,
    ))!;
    assert.deepStrictEqual([written.defaultMode, written.defaultModel], ['plan', 'smart'], settingsText());

    await selectAgent(cw.chat, IMPORTED);
    await newSession(cw.chat);
    const mode = cw.chat.getByRole('combobox', { name: 'Mode', exact: true });
    const model = cw.chat.getByRole('combobox', { name: 'Model', exact: true });
    await until(async () => (await mode.inputValue().catch(() => '')) === 'plan', 'the Mode picker to show the imported default mode', 60_000);
    await until(async () => (await model.inputValue().catch(() => '')) === 'smart', 'the Model picker to show the imported default model', 60_000);
  });
});
