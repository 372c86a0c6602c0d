// The ACP Registry through the real workbench: "Add agent…" in the chat's Agent picker opens the registry
// list (served by this test on 127.0.0.1), a click installs the fixture agent (a tar.gz built from the fake
// agent), it joins the picker with its icon and runs a turn; the update notification and the list update it;
// the list uninstalls it; an offline registry says so, and a bad checksum or an agent built for another
// platform installs nothing and says why. Each test starts from the registry publishing 1.0.0 and installs
// what it needs itself, so any one of them passes alone.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { agentTarGz, sha256 } from '../fixtures/registry/archives';
import { registryAgent, SAFE_SVG, startRegistryServer, type RegistryServer } from '../fixtures/registry/registryServer';
import { DEMO_AGENT, selectAgent, sendMessage, transcript, until } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { e2eEnv, runCommand, screenshot } from './helpers/workbench';
import { settingsText } from './helpers/stored';

const PLATFORM = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`;
const AGENT = 'Fixture Binary';
/** The extension's global storage in code-server's user data. */
const storage = () => path.join(e2eEnv().userDataDir, 'User', 'globalStorage', 'switchboard-dev.switchboard');

describe('ACP Registry in the workbench', function () {
  this.timeout(240_000);
  let server: RegistryServer;
  const v1 = agentTarGz(process.execPath);
  const v2 = agentTarGz(process.execPath, ['--minimal-caps']);
  const entry = (version: string, body: Buffer) =>
    registryAgent('fixture-binary', version, { binary: { [PLATFORM]: { archive: `/fixture-binary-${version}.tar.gz`, cmd: 'bin/agent', sha256: sha256(body) } } }, {
      name: AGENT,
      description: 'A scripted agent for the registry tests',
      authors: ['Switchboard tests'],
      license: 'MIT',
      icon: '/fixture-binary.svg',
    });
  const publish = (...agents: Record<string, unknown>[]) => server.setJson('/registry.json', { version: '1.0.0', agents });

  before(async () => {
    server = await startRegistryServer();
    server.set('/fixture-binary-1.0.0.tar.gz', { kind: 'body', body: v1 });
    server.set('/fixture-binary-1.1.0.tar.gz', { kind: 'body', body: v2 });
    server.set('/fixture-binary.svg', { kind: 'body', body: SAFE_SVG, contentType: 'image/svg+xml' });
    publish(entry('1.0.0', v1));
  });
  const cw = useChatWorkbench({
    name: 'registry',
    agent: DEMO_AGENT,
    noPick: true,
    settings: () => ({ 'switchboard.registry.url': server.registryUrl }),
    width: 1400,
    height: 1000,
    onFailure: () => `settings after the failure: ${settingsText()}; registry requests: ${JSON.stringify([...server.hits])}`,
  });
  after(() => server.close());

  beforeEach(() => publish(entry('1.0.0', v1)));

  // Leave no quick pick or dialog open for the next test.
  afterEach(() => cw.page.keyboard.press('Escape'));

  const picker = () => cw.chat.getByRole('combobox', { name: 'Agent', exact: true });
  const pickerOptions = () => picker().locator('option').allTextContents();
  const quickInput = () => cw.page.locator('.quick-input-widget');
  const row = (label: string): Locator =>
    cw.page.locator('.quick-input-list .monaco-list-row').filter({ has: cw.page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).first();
  const notification = (text: RegExp): Locator => cw.page.locator('.notifications-toasts .notification-list-item').filter({ hasText: text }).first();

  /**
   * Waits until the notification `text` was shown: as a toast, or else in the notification center. The
   * workbench can hide a toast it did show (seen in CI: the workbench logged the error, no toast was found),
   * and the center lists every notification until it is cleared.
   */
  async function shown(text: RegExp): Promise<void> {
    const asToast = await notification(text).waitFor({ timeout: 15_000 }).then(() => true, () => false);
    if (asToast) return;
    await runCommand(cw.page, 'Notifications: Show Notifications');
    await cw.page.locator('.notifications-center .notification-list-item').filter({ hasText: text }).first().waitFor({ timeout: 30_000 });
    await cw.page.keyboard.press('Escape');
  }

  /** Opens the registry list from the chat's Agent picker and waits for `label` in it. */
  async function openListFromPicker(label: string): Promise<Locator> {
    await picker().selectOption({ label: 'Add agent…' });
    await quickInput().waitFor({ state: 'visible' });
    const item = row(label);
    await item.waitFor({ timeout: 60_000 });
    return item;
  }

  async function openListFromCommand(label: string): Promise<Locator> {
    await runCommand(cw.page, 'Switchboard: Add Agent from Registry…');
    const item = row(label);
    await item.waitFor({ timeout: 60_000 });
    return item;
  }

  /** The versions of the fixture agent installed in the extension's storage. */
  const installedVersions = (): string[] => {
    const dir = path.join(storage(), 'agents', 'fixture-binary');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  /** Installs the fixture agent from the list unless a version of it is installed (the registry publishes 1.0.0). */
  async function ensureInstalled(): Promise<void> {
    if (installedVersions().length > 0) return;
    await (await openListFromCommand(AGENT)).click();
    await notification(/Fixture Binary 1\.0\.0 is installed/).waitFor({ timeout: 60_000 });
    await until(async () => (await pickerOptions()).includes(AGENT), 'the agent in the Agent picker');
  }

  it('"Add agent…" lists the registry; a click installs the agent, which joins the picker with its icon and runs a turn', async () => {
    const item = await openListFromPicker(AGENT);
    // The picker keeps showing the agent it showed: "Add agent…" is not an agent.
    assert.strictEqual(await picker().evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent), DEMO_AGENT);
    const text = await item.innerText();
    for (const part of ['v1.0.0', 'MIT', 'A scripted agent for the registry tests', 'by Switchboard tests', `download for ${PLATFORM}`]) assert.ok(text.includes(part), `"${part}" in ${JSON.stringify(text)}`);
    await screenshot(cw.page, 'registry-list');
    // Searchable: typing filters the list.
    await cw.page.locator('.quick-input-widget input').fill('scripted');
    await item.click();
    await notification(/Fixture Binary 1\.0\.0 is installed/).waitFor({ timeout: 60_000 });
    await until(async () => (await pickerOptions()).includes(AGENT), 'the agent in the Agent picker');
    await selectAgent(cw.chat, AGENT);
    const icon = cw.chat.locator('.toolbar img');
    await icon.waitFor();
    assert.match((await icon.getAttribute('src')) ?? '', /^data:image\/svg\+xml;base64,/);
    await sendMessage(cw.chat, 'hello registry', { waitForEnd: true });
    await transcript(cw.chat).getByText('echo: hello registry').first().waitFor();
    await screenshot(cw.page, 'registry-agent-in-picker');
  });

  it('a newer version shows as "update available" in the list, and the update notification updates it', async () => {
    await ensureInstalled();
    assert.deepStrictEqual(installedVersions(), ['1.0.0']);
    // The agent runs (a session of its own): the update then asks for a restart.
    await selectAgent(cw.chat, AGENT);
    await sendMessage(cw.chat, 'before the update', { waitForEnd: true });
    publish(entry('1.1.0', v2));
    const item = await openListFromCommand(AGENT);
    await until(async () => (await item.innerText()).includes('update available (installed 1.0.0)'), 'the "update available" mark');
    await cw.page.keyboard.press('Escape');
    await runCommand(cw.page, 'Switchboard: Check for Agent Updates');
    const offer = notification(/Fixture Binary 1\.1\.0 is available in the agent registry \(you have 1\.0\.0\)/);
    await offer.waitFor({ timeout: 60_000 });
    await offer.getByRole('button', { name: 'Update' }).click();
    // The new version takes over when the agent restarts.
    const updated = notification(/Fixture Binary was updated to 1\.1\.0 \(from 1\.0\.0\)\. Restart the agent to use it/);
    await updated.waitFor({ timeout: 60_000 });
    await updated.getByRole('button', { name: 'Restart Agent' }).click();
    assert.deepStrictEqual(fs.readdirSync(path.join(storage(), 'agents', 'fixture-binary')), ['1.1.0'], 'the old version\'s files are gone');
    const again = await openListFromCommand(AGENT);
    await until(async () => /v1\.1\.0.*installed/.test(await again.innerText()), 'the list to show 1.1.0 installed');
    await cw.page.keyboard.press('Escape');
    await selectAgent(cw.chat, AGENT);
    await sendMessage(cw.chat, 'after the update', { waitForEnd: true });
    await transcript(cw.chat).getByText('echo: after the update').first().waitFor();
  });

  it('offline, the list is the saved copy and says so', async () => {
    // The list once online, so there is a saved copy.
    await openListFromCommand(AGENT);
    await cw.page.keyboard.press('Escape');
    server.set('/registry.json', { kind: 'status', status: 503 });
    await runCommand(cw.page, 'Switchboard: Add Agent from Registry…');
    await row(AGENT).waitFor({ timeout: 60_000 });
    await until(async () => /offline: the list saved/.test(await quickInput().innerText()), 'the offline notice in the list');
    await cw.page.keyboard.press('Escape');
  });

  it('the list uninstalls it: its files go and it leaves the picker', async () => {
    await ensureInstalled();
    const [version] = installedVersions();
    // The registry lists the installed version, as after an update.
    publish(version === '1.1.0' ? entry('1.1.0', v2) : entry('1.0.0', v1));
    await (await openListFromCommand(AGENT)).click();
    await cw.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Uninstall' }).first().click();
    const dialog = cw.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible' });
    assert.ok((await dialog.innerText()).includes(`Uninstall Fixture Binary ${version}?`), await dialog.innerText());
    await dialog.getByRole('button', { name: 'Uninstall' }).click();
    await notification(/Fixture Binary was uninstalled/).waitFor({ timeout: 30_000 });
    await until(async () => !(await pickerOptions()).includes(AGENT), 'the agent to leave the picker');
    assert.ok(!fs.existsSync(path.join(storage(), 'agents', 'fixture-binary')), 'its files are removed');
  });

  it('a checksum mismatch or an agent built only for another platform installs nothing and says why', async () => {
    const other = PLATFORM === 'darwin-aarch64' ? 'linux-x86_64' : 'darwin-aarch64';
    publish(
      registryAgent('bad-sum', '1.0.0', { binary: { [PLATFORM]: { archive: '/fixture-binary-1.0.0.tar.gz', cmd: 'bin/agent', sha256: '0'.repeat(64) } } }, { name: 'Bad Checksum' }),
      registryAgent('elsewhere', '1.0.0', { binary: { [other]: { archive: '/x.zip', cmd: 'x' } } }, { name: 'Elsewhere Only' }),
    );
    // The workbench shows only the newest few toasts: earlier tests' notifications must not hide these.
    await runCommand(cw.page, 'Notifications: Clear All Notifications');
    await (await openListFromCommand('Bad Checksum')).click();
    await shown(/Could not install Bad Checksum 1\.0\.0: the checksum of the archive .* does not match the registry/);
    await runCommand(cw.page, 'Notifications: Clear All Notifications');
    const elsewhere = await openListFromCommand('Elsewhere Only');
    assert.match(await elsewhere.innerText(), /not available on this machine/);
    await elsewhere.click();
    await shown(new RegExp(`Elsewhere Only has no build for this machine \\(${PLATFORM}\\); it supports ${other}`));
    const options = await pickerOptions();
    assert.ok(!options.includes('Bad Checksum') && !options.includes('Elsewhere Only'), JSON.stringify(options));
  });
});
