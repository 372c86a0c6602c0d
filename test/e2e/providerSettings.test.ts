// The Model provider settings in the chat, clicked through in the real workbench with the fake agent started
// with --providers (it advertises the unstable `providers` capability: `main`, required, and `openai`,
// optional and disabled): the choice shows only for an agent that offers it; a URL that is not http(s) is
// refused in the chat before anything is sent; setting openai (with a header) shows the new base URL and says
// that new sessions use it; the agent's own refusal (-32602) is said in the chat and nothing changes;
// Disable is never offered for the required provider, and disabling openai shows it disabled.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { button, FAKE_AGENT, REPO, selectAgent, sendMessage, tabs, until } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { screenshot } from './helpers/workbench';

const ROUTED = 'Routed Agent';
const SECRET = 'e2e-provider-secret-41b7';

describe('Model provider settings in the chat', function () {
  this.timeout(180_000);
  const logFile = path.join(os.tmpdir(), `switchboard-e2e-providers-${process.pid}.jsonl`);
  const fakeAgent = path.join(REPO, 'test', 'fixtures', 'agents', 'fake-agent.mjs');

  const settings = (): Locator => cw.chat.getByRole('region', { name: 'Model provider', exact: true });
  const row = (providerId: string): Locator => settings().getByRole('listitem', { name: `Provider ${providerId}`, exact: true });
  const form = (providerId: string): Locator => settings().getByRole('form', { name: `Set provider ${providerId}`, exact: true });
  const sets = (): number => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter((l) => l.includes('"providers/set"')).length : 0);

  before(() => fs.rmSync(logFile, { force: true }));
  const cw = useChatWorkbench({
    name: 'provider-settings',
    agent: FAKE_AGENT,
    // A session of the fake agent is open before the tests, so picking the routed agent opens its tab.
    newSession: true,
    settings: {
      'switchboard.agents': {
        [FAKE_AGENT]: { command: process.execPath, args: [fakeAgent] },
        [ROUTED]: { command: process.execPath, args: [fakeAgent, '--providers', `--providers-log=${logFile}`] },
      },
    },
  });
  after(() => fs.rmSync(logFile, { force: true }));

  it('is not offered for an agent without the capability', async () => {
    await selectAgent(cw.chat, FAKE_AGENT);
    await sendMessage(cw.chat, 'hello', { waitForEnd: true });
    assert.strictEqual(await cw.chat.getByRole('button', { name: 'Model provider', exact: true }).count(), 0);
  });

  it('shows the providers; refuses a non-http(s) URL before sending; sets one; says when the agent rejects; disables', async () => {
    const before = await tabs(cw.chat).count();
    await selectAgent(cw.chat, ROUTED);
    await until(async () => (await tabs(cw.chat).count()) > before, 'a session of the routed agent', 60_000);
    await sendMessage(cw.chat, 'hello', { waitForEnd: true });
    const toggle = settings().getByRole('button', { name: 'Model provider', exact: true });
    await until(async () => /main: https:\/\/api\.anthropic\.example, openai: disabled/.test(await toggle.innerText()), 'the providers in the summary', 30_000);
    await toggle.click();
    await until(async () => /anthropic · https:\/\/api\.anthropic\.example\s*\(required\)/.test(await row('main').innerText()), 'main with where it routes');
    assert.strictEqual(await button(row('main'), 'Disable main').count(), 0, 'a required provider is never offered Disable');
    assert.match(await settings().innerText(), /A change applies to sessions started after it\./);

    await button(row('openai'), 'Change openai').click();
    await form('openai').getByRole('combobox', { name: 'API type' }).selectOption('azure');
    const url = form('openai').getByRole('textbox', { name: 'Base URL' });
    await url.fill('ftp://gateway.example/v1');
    await button(form('openai'), 'Apply').click();
    const alert = settings().getByRole('alert');
    await until(async () => /Not sent to Routed Agent: The base URL must be http:\/\/ or https:\/\/, not ftp:\/\/\./.test(await alert.innerText()), 'the refusal in the chat');
    assert.strictEqual(sets(), 0, 'nothing was sent');

    await url.fill('https://gateway.example/v1');
    await button(form('openai'), 'Add header').click();
    await form('openai').getByRole('textbox', { name: 'Header 1 name' }).fill('api-key');
    await form('openai').getByLabel('Header 1 value').fill(SECRET);
    await button(form('openai'), 'Apply').click();
    await until(async () => /azure · https:\/\/gateway\.example\/v1/.test(await row('openai').innerText()), 'openai routed to the gateway', 30_000);
    assert.match(await settings().getByRole('status').innerText(), /openai now sends model calls to https:\/\/gateway\.example\/v1 \(azure\)\. Sessions started from now on use it/);
    assert.strictEqual(await alert.count(), 0, 'the earlier refusal is gone');
    assert.ok(fs.readFileSync(logFile, 'utf8').includes(SECRET), 'the header reached the agent');
    await screenshot(cw.page, 'provider-settings');

    await url.fill('https://reject.example/v1');
    await form('openai').getByLabel('Header 1 value').fill('');
    await button(form('openai'), 'Apply').click();
    await until(async () => /Routed Agent rejected the provider change: The fake agent refuses the base URL https:\/\/reject\.example\/v1 \(-32602\)\. Its provider settings stay as they were\./.test(await alert.innerText()), 'the rejection in the chat', 30_000);
    assert.match(await row('openai').innerText(), /azure · https:\/\/gateway\.example\/v1/, 'unchanged');
    await button(alert, 'Dismiss').click();
    await until(async () => (await alert.count()) === 0, 'the alert dismissed');

    await button(row('openai'), 'Disable openai').click();
    await until(async () => /openai\s*disabled/.test(await row('openai').innerText()), 'openai disabled', 30_000);
  });
});
