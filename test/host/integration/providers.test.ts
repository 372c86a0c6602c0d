// Model provider settings (unstable providers/list, set, disable) through the real SessionBackend with the fake
// agent: offered only when the agent advertises `providers`; list -> set -> list shows the new base URL; the
// choice is kept (headers in SecretStorage, never in settings) and set again when the agent restarts;
// refused before sending (not http(s), headers over plain http to another machine, a required provider's
// Disable); the agent's own refusal and an unreadable list are said in the chat, and nothing changes.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { AgentProvidersView } from '../../../src/shared/chatState';
import * as vscode from 'vscode';
import { setSettings, waitFor } from '../index';
import { fakeAgent, withFakeAgents } from './helpers';

const SECRET = 'sk-provider-test-7f3e9a1c';

describe('model provider settings (providers/*) with the fake agent', function () {
  this.timeout(60_000);
  const logFile = path.join(os.tmpdir(), `switchboard-providers-${process.pid}.jsonl`);
  const context = withFakeAgents({
    Routed: ['--providers', `--providers-log=${logFile}`],
    'Routed Garbage': ['--providers=garbage'],
    Unrouted: [],
  });

  const settings = (agent: string): AgentProvidersView | undefined => context.sb.backend.agents.views().find((a) => a.id === agent)?.providers;
  const provider = (agent: string, id: string) => settings(agent)?.providers?.find((p) => p.providerId === id);
  /** The providers/* requests the fake agent received, in order. */
  const received = (): Array<{ method: string; params: Record<string, unknown> }> =>
    fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { method: string; params: Record<string, unknown> }) : [];
  const sent = (method: string) => received().filter((r) => r.method === method);

  before(() => fs.rmSync(logFile, { force: true }));
  after(async () => {
    // Sign-out forgets what Switchboard kept for the agent (the provider choice among it).
    await context.sb.backend.agents.logout('Routed').catch(() => undefined);
    fs.rmSync(logFile, { force: true });
  });

  it('offers no Model provider choice for an agent without the capability, and sends it nothing', async () => {
    await context.sb.backend.lifecycle.open('Unrouted');
    assert.ok(context.sb.backend.agents.views().find((a) => a.id === 'Unrouted')?.status === 'ready');
    assert.strictEqual(settings('Unrouted'), undefined);
  });

  it('lists, sets (headers kept as secrets), lists the new base URL, and sets it again after a restart', async () => {
    await context.sb.backend.lifecycle.open('Routed');
    await waitFor(() => settings('Routed')?.providers, 'the providers list');
    assert.deepStrictEqual(provider('Routed', 'main'), {
      providerId: 'main',
      supported: ['anthropic', 'bedrock', '_gateway'],
      required: true,
      current: { apiType: 'anthropic', baseUrl: 'https://api.anthropic.example' },
    });
    assert.strictEqual(provider('Routed', 'openai')?.current, null, 'disabled at start');

    await context.sb.backend.providers.run('Routed', {
      kind: 'set',
      providerId: 'openai',
      apiType: 'azure',
      baseUrl: ' https://gateway.example/openai ',
      headers: [{ name: 'api-key', value: SECRET }],
    });
    assert.strictEqual(settings('Routed')?.error, undefined);
    assert.match(settings('Routed')?.notice ?? '', /openai now sends model calls to https:\/\/gateway\.example\/openai \(azure\)\. Sessions started from now on use it/);
    assert.deepStrictEqual(provider('Routed', 'openai')?.current, { apiType: 'azure', baseUrl: 'https://gateway.example/openai' }, 'the list shows the new base URL');
    assert.deepStrictEqual(provider('Routed', 'openai')?.saved, { apiType: 'azure', baseUrl: 'https://gateway.example/openai', headerNames: ['api-key'] });
    assert.ok(!JSON.stringify(context.sb.backend.agents.views()).includes(SECRET), 'header values never reach the chat');
    assert.deepStrictEqual(sent('providers/set').at(-1)?.params, { providerId: 'openai', apiType: 'azure', baseUrl: 'https://gateway.example/openai', headers: { 'api-key': SECRET } });

    // Changing the URL with the header left empty keeps the stored value.
    await context.sb.backend.providers.run('Routed', { kind: 'set', providerId: 'openai', apiType: 'openai', baseUrl: 'https://gateway.example/v2', headers: [{ name: 'api-key' }] });
    assert.deepStrictEqual(sent('providers/set').at(-1)?.params.headers, { 'api-key': SECRET });

    // A new process starts with openai disabled: only Switchboard setting it again brings it back.
    const setsBefore = sent('providers/set').length;
    await context.sb.backend.agents.restart('Routed');
    await waitFor(() => provider('Routed', 'openai')?.current?.baseUrl === 'https://gateway.example/v2', 'the kept choice after the restart');
    assert.strictEqual(sent('providers/set').length, setsBefore + 1, 'set once again at start');
    assert.deepStrictEqual(sent('providers/set').at(-1)?.params.headers, { 'api-key': SECRET });
    assertNotInSettings(SECRET);
  });

  it('disables an optional provider (kept, and disabled again after a restart); a required one is never disabled', async () => {
    await waitFor(() => provider('Routed', 'openai')?.current, 'openai set by the test before');
    await context.sb.backend.providers.run('Routed', { kind: 'disable', providerId: 'openai' });
    assert.strictEqual(provider('Routed', 'openai')?.current, null);
    assert.deepStrictEqual(provider('Routed', 'openai')?.saved, { disabled: true });
    assert.match(settings('Routed')?.notice ?? '', /openai is disabled\. Sessions started from now on do without it/);

    const disables = sent('providers/disable').length;
    await context.sb.backend.agents.restart('Routed');
    await waitFor(() => sent('providers/disable').length === disables + 1, 'providers/disable sent again at start');

    await context.sb.backend.providers.run('Routed', { kind: 'disable', providerId: 'main' });
    assert.match(settings('Routed')?.error ?? '', /^Not sent to Routed: main is required by the agent: it cannot be disabled\./);
    assert.ok(!sent('providers/disable').some((r) => r.params.providerId === 'main'), 'never sent');
  });

  it('refuses before sending: a URL that is not http(s), and headers over plain http to another machine', async () => {
    await waitFor(() => settings('Routed')?.providers, 'the providers list');
    const sets = sent('providers/set').length;
    await context.sb.backend.providers.run('Routed', { kind: 'set', providerId: 'main', apiType: 'anthropic', baseUrl: 'file:///etc/passwd', headers: [] });
    assert.match(settings('Routed')?.error ?? '', /^Not sent to Routed: The base URL must be http:\/\/ or https:\/\/, not file:\/\/\./);
    await context.sb.backend.providers.run('Routed', { kind: 'set', providerId: 'main', apiType: 'anthropic', baseUrl: 'not a url', headers: [] });
    assert.match(settings('Routed')?.error ?? '', /"not a url" is not a valid URL/);
    await context.sb.backend.providers.run('Routed', {
      kind: 'set',
      providerId: 'main',
      apiType: 'anthropic',
      baseUrl: 'http://gateway.example:8080',
      headers: [{ name: 'x-api-key', value: SECRET }],
    });
    assert.match(settings('Routed')?.error ?? '', /Refused to send credentials \("x-api-key"\) over plain http to gateway\.example:8080.*Use https:\/\//);
    assert.strictEqual(sent('providers/set').length, sets, 'nothing was sent');
    assert.deepStrictEqual(provider('Routed', 'main')?.current, { apiType: 'anthropic', baseUrl: 'https://api.anthropic.example' }, 'unchanged');
    await context.sb.backend.providers.run('Routed', { kind: 'dismiss' });
    assert.strictEqual(settings('Routed')?.error, undefined);
  });

  it("says in the chat when the agent rejects a change (-32602); the settings and the kept choice stay as they were", async () => {
    await context.sb.backend.lifecycle.open('Routed');
    await waitFor(() => settings('Routed')?.providers, 'the providers list');
    const savedBefore = provider('Routed', 'openai')?.saved;
    await context.sb.backend.providers.run('Routed', { kind: 'set', providerId: 'openai', apiType: 'openai', baseUrl: 'https://reject.example/v1', headers: [] });
    assert.match(settings('Routed')?.error ?? '', /^Routed rejected the provider change: The fake agent refuses the base URL https:\/\/reject\.example\/v1 \(-32602\)\. Its provider settings stay as they were\./);
    assert.strictEqual(sent('providers/set').at(-1)?.params.baseUrl, 'https://reject.example/v1', 'it was sent');
    assert.strictEqual(provider('Routed', 'openai')?.current, null);
    assert.deepStrictEqual(provider('Routed', 'openai')?.saved, savedBefore);
  });

  it('when the agent refuses the kept choice at its next start, the chat says so and the choice is kept', async () => {
    await context.sb.backend.lifecycle.open('Routed');
    await context.sb.backend.providers.run('Routed', { kind: 'set', providerId: 'openai', apiType: 'openai', baseUrl: 'https://gateway.example/v3', headers: [] });
    assert.strictEqual(settings('Routed')?.error, undefined);
    // The same agent, now refusing every providers/set: the restart takes the new definition.
    const restore = await setSettings({
      'switchboard.agents': { ...vscode.workspace.getConfiguration('switchboard').get<Record<string, unknown>>('agents'), Routed: { command: 'node', args: [fakeAgent, '--providers', '--providers-refuse-set'] } },
    });
    const refusing = (on: boolean) => context.sb.configuration.find('Routed')?.args.includes('--providers-refuse-set') === on;
    try {
      await waitFor(() => refusing(true), 'the new definition');
      await context.sb.backend.agents.restart('Routed');
      const view = await waitFor(() => (settings('Routed')?.providers ? settings('Routed') : undefined), 'the list after the restart');
      assert.match(view.error ?? '', /^Routed did not take your Model provider choice when it started \(openai: This fake agent takes no provider settings \(-32602\)\)\. It uses its own settings for that provider until you set it again; your choice is kept\./);
      assert.strictEqual(provider('Routed', 'openai')?.current, null, "the agent's own setting");
      assert.deepStrictEqual(provider('Routed', 'openai')?.saved, { apiType: 'openai', baseUrl: 'https://gateway.example/v3', headerNames: [] });
    } finally {
      await restore();
      await waitFor(() => refusing(false), 'the definition put back');
      await context.sb.backend.agents.restart('Routed');
    }
  });

  it('an agent whose providers/list is garbage gets a clear error, not a crash', async () => {
    await context.sb.backend.lifecycle.open('Routed Garbage');
    const view = await waitFor(() => (settings('Routed Garbage')?.error ? settings('Routed Garbage') : undefined), 'the list error');
    assert.match(view.error ?? '', /^Could not read Routed Garbage's model providers: The agent sent an invalid result for providers\/list: providers /);
    assert.deepStrictEqual(view.providers, []);
    assert.strictEqual(context.sb.backend.agents.views().find((a) => a.id === 'Routed Garbage')?.status, 'ready');
  });
});

/** Every settings.json of this run (user, machine, workspace) holds no secret; at least the one with our agents is read. */
function assertNotInSettings(secret: string): void {
  const results = process.env.SWITCHBOARD_TEST_RESULTS;
  assert.ok(results, 'the host runner sets SWITCHBOARD_TEST_RESULTS');
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < 6 && entry.name !== 'node_modules' && entry.name !== 'extensions') walk(full, depth + 1);
      else if (entry.isFile() && entry.name === 'settings.json') found.push(full);
    }
  };
  walk(path.dirname(results), 0);
  const withAgents = found.filter((f) => fs.readFileSync(f, 'utf8').includes('"Routed"'));
  assert.ok(withAgents.length > 0, `the settings file with switchboard.agents is among ${found.join(', ')}`);
  for (const f of found) assert.ok(!fs.readFileSync(f, 'utf8').includes(secret), `${f} holds no header value`);
}
