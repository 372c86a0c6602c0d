// The ACP Registry inside a real VS Code: agents installed from a registry on 127.0.0.1 (a binary built
// from the fake agent, and an npx package packed from it) join the Agent picker with their icon, run
// sessions and turns, take overrides from switchboard.agents by registry id, update and uninstall; every
// bad input leaves nothing installed and says what is wrong.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { RegistryAgent, RegistryLoad } from '../../../src/agents/registry';
import { formatBytes } from '../../../src/agents/registry/http';
import { agentTarGz, fakeAgentPackage, sha256, tarGz } from '../../fixtures/registry/archives';
import { registryAgent, SAFE_SVG, SCRIPT_SVG, startRegistryServer, type RegistryServer } from '../../fixtures/registry/registryServer';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { api, prompt, textOf, transcriptOf } from '../integration/helpers';

const PLATFORM = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`;

describe('ACP Registry: install, run, update, uninstall', function () {
  this.timeout(120_000);
  let sb: SwitchboardApi;
  let server: RegistryServer;
  let restore: () => Promise<void>;
  let scratch: string;
  // `node` from PATH, as the other host tests start the fake agent.
  const archive = agentTarGz('node');
  const archiveV2 = agentTarGz('node', ['--minimal-caps']);
  let tarball: string;

  const binaryEntry = (version: string, body: Buffer, extra: Record<string, unknown> = {}) =>
    registryAgent('fixture-binary', version, { binary: { [PLATFORM]: { archive: `/fixture-binary-${version}.tar.gz`, cmd: 'bin/agent', env: { FIXTURE: version }, sha256: sha256(body) } } }, {
      name: 'Fixture Binary',
      icon: '/icons/fixture-binary.svg',
      ...extra,
    });
  const npxEntry = () => registryAgent('fixture-npx', '1.0.0', { npx: { package: `file:${tarball}` } }, { name: 'Fixture Npx' });

  const publish = (agents: Record<string, unknown>[]) => server.setJson('/registry.json', { version: '1.0.0', agents });
  const load = () => sb.registry.load();
  const agentIn = (l: RegistryLoad, id: string): RegistryAgent => {
    const found = l.registry.agents.find((a) => a.id === id);
    assert.ok(found, `${id} in the registry`);
    return found;
  };
  const pickerHas = (name: string) => sb.backend.agents.views().some((a) => a.name === name);
  const storeRoot = () => path.join(path.dirname(sb.registry.iconFolder), '..', 'agents');

  before(async () => {
    sb = await api();
    server = await startRegistryServer();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-registry-host-'));
    tarball = fakeAgentPackage(scratch);
    server.set('/fixture-binary-1.0.0.tar.gz', { kind: 'body', body: archive });
    server.set('/fixture-binary-1.1.0.tar.gz', { kind: 'body', body: archiveV2 });
    server.set('/icons/fixture-binary.svg', { kind: 'body', body: SAFE_SVG, contentType: 'image/svg+xml' });
    server.set('/icons/hostile.svg', { kind: 'body', body: SCRIPT_SVG, contentType: 'image/svg+xml' });
    publish([binaryEntry('1.0.0', archive), npxEntry()]);
    restore = await setSettings({ 'switchboard.registry.url': server.registryUrl });
  });

  after(async () => {
    for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);
    for (const a of [...sb.registry.installed]) await sb.registry.uninstall(a.id);
    await restore();
    await server.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** Fixture Binary 1.0.0 installed and in the picker: a test that needs it installs it, whatever ran before. */
  async function installVersion1(): Promise<void> {
    if (sb.registry.installed.some((a) => a.id === 'fixture-binary' && a.version === '1.0.0')) return;
    publish([binaryEntry('1.0.0', archive), npxEntry()]);
    const l = await load();
    await sb.registry.install(agentIn(l, 'fixture-binary'), l);
    await waitFor(() => pickerHas('Fixture Binary'), 'Fixture Binary in the Agent picker');
  }

  async function runTurn(agentName: string, text: string): Promise<void> {
    const id = await sb.backend.lifecycle.open(agentName);
    await sb.backend.sessions.require(id).prompt(prompt(text));
    const items = transcriptOf(sb, id).items;
    const answer = items.find((i) => i.kind === 'agent_message');
    assert.strictEqual(answer && textOf(answer), `echo: ${text}`);
    assert.strictEqual(items.at(-1)?.kind, 'turn_end');
    await sb.backend.lifecycle.close(id);
  }

  it('installs a binary agent: it joins the Agent picker with its icon, a session starts and a turn completes', async () => {
    const l = await load();
    assert.strictEqual(l.source, 'network');
    const record = await sb.registry.install(agentIn(l, 'fixture-binary'), l);
    assert.strictEqual(record.command, path.join(record.directory ?? '', 'bin', 'agent'));
    assert.ok(record.directory?.endsWith(path.join('agents', 'fixture-binary', '1.0.0')), record.directory);
    await waitFor(() => pickerHas('Fixture Binary'), 'Fixture Binary in the Agent picker');
    const view = sb.backend.agents.views().find((a) => a.name === 'Fixture Binary');
    assert.ok(view?.icon?.startsWith('data:image/svg+xml;base64,'), 'the icon reaches the picker');
    const definition = sb.configuration.find('Fixture Binary');
    assert.deepStrictEqual([definition?.source, definition?.env], ['registry', { FIXTURE: '1.0.0' }]);
    await runTurn('Fixture Binary', 'hello registry');
  });

  it('its switchboard.agents entry (by registry id) overrides args and env, and it can be the default agent by id', async () => {
    await installVersion1();
    const undo = await setSettings({
      'switchboard.agents': { 'fixture-binary': { args: ['--minimal-caps'], env: { EXTRA: 'yes' } } },
      'switchboard.defaultAgent': 'fixture-binary',
    });
    try {
      await waitFor(() => sb.configuration.find('Fixture Binary')?.env.EXTRA === 'yes', 'the override to apply');
      const definition = sb.configuration.find('Fixture Binary');
      assert.deepStrictEqual([definition?.args, definition?.env], [['--minimal-caps'], { FIXTURE: '1.0.0', EXTRA: 'yes' }]);
      assert.strictEqual(sb.backend.agents.defaultAgentId(), 'Fixture Binary');
      assert.deepStrictEqual(sb.configuration.snapshot.problems, []);
      await runTurn('Fixture Binary', 'with overrides');
    } finally {
      await undo();
    }
  });

  it('updates to a newer version (the old files go) and uninstalls (its files go, it leaves the picker)', async () => {
    await installVersion1();
    publish([binaryEntry('1.1.0', archiveV2), npxEntry()]);
    const l = await load();
    const record = await sb.registry.install(agentIn(l, 'fixture-binary'), l);
    assert.strictEqual(record.version, '1.1.0');
    await waitFor(() => sb.configuration.find('Fixture Binary')?.env.FIXTURE === '1.1.0', 'the picker to use 1.1.0');
    assert.deepStrictEqual(fs.readdirSync(path.join(storeRoot(), 'fixture-binary')), ['1.1.0']);
    // A process of the old version runs until it restarts (the update notification offers it).
    await sb.backend.agents.restart('Fixture Binary');
    await runTurn('Fixture Binary', 'after the update');
    await sb.registry.uninstall('fixture-binary');
    await waitFor(() => !pickerHas('Fixture Binary'), 'Fixture Binary to leave the picker');
    assert.ok(!fs.existsSync(path.join(storeRoot(), 'fixture-binary')), 'its files are removed');
  });

  it('installs an npx agent (a local package, no network) that runs a turn', async () => {
    const l = await load();
    const record = await sb.registry.install(agentIn(l, 'fixture-npx'), l);
    assert.deepStrictEqual([record.kind, record.command, record.args], ['npx', 'npx', ['-y', `file:${tarball}`]]);
    await waitFor(() => pickerHas('Fixture Npx'), 'Fixture Npx in the Agent picker');
    await runTurn('Fixture Npx', 'hello npx');
    await sb.registry.uninstall('fixture-npx');
  });

  describe('bad input', () => {
    const nothingInstalled = (id: string, name: string) => {
      assert.ok(!sb.registry.find(id), `${id} is not recorded`);
      assert.ok(!pickerHas(name), `${name} is not in the picker`);
      assert.ok(!fs.existsSync(path.join(storeRoot(), id)), `no files for ${id}`);
      for (const s of ['.downloads', '.staging']) {
        const folder = path.join(storeRoot(), s);
        assert.deepStrictEqual(fs.existsSync(folder) ? fs.readdirSync(folder) : [], [], `${s} is empty`);
      }
    };
    const refused = async (entry: Record<string, unknown>, pattern: RegExp) => {
      publish([entry]);
      const l = await load();
      await assert.rejects(sb.registry.install(agentIn(l, String(entry.id)), l), pattern);
      nothingInstalled(String(entry.id), String(entry.name));
    };
    const bad = (id: string, target: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      registryAgent(id, '1.0.0', { binary: { [PLATFORM]: { archive: `/${id}.tar.gz`, cmd: 'bin/agent', ...target } } }, { name: `Bad ${id}`, ...extra });

    it('an unreachable registry, one that is not JSON or fails the schema: the error says what is wrong and the cached copy is kept', async () => {
      publish([binaryEntry('1.0.0', archive)]);
      assert.strictEqual((await load()).source, 'network');
      server.set('/registry.json', { kind: 'body', body: 'Service Unavailable <html>' });
      let l = await load();
      assert.deepStrictEqual([l.source, l.registry.agents.map((a) => a.id)], ['cache', ['fixture-binary']]);
      assert.match(l.networkError ?? '', /is not a valid agent registry: the registry is not JSON/);
      publish([{ id: 'Bad Id', name: 'x', version: '1', distribution: {} }]);
      l = await load();
      assert.strictEqual(l.source, 'cache');
      assert.match(l.networkError ?? '', /"id" must be lowercase/);
      server.set('/registry.json', { kind: 'status', status: 500 });
      l = await load();
      assert.match(l.networkError ?? '', /the server answered 500/);
      const undo = await setSettings({ 'switchboard.registry.url': `${server.base}/never-fetched.json` });
      try {
        await assert.rejects(load(), /The agent registry could not be loaded: could not download the agent registry from .*never-fetched\.json: the server answered 404/);
      } finally {
        await undo();
      }
    });

    it('an agent with no build for this machine says which platforms it supports', async () => {
      const other = PLATFORM === 'darwin-aarch64' ? 'windows-x86_64' : 'darwin-aarch64';
      await refused(registryAgent('elsewhere', '1.0.0', { binary: { [other]: { archive: '/x.zip', cmd: 'x' } } }, { name: 'Elsewhere' }), new RegExp(`no build for this machine \\(${PLATFORM}\\); it supports ${other}`));
    });

    it('a checksum mismatch is refused and the download deleted', async () => {
      server.set('/bad-sha.tar.gz', { kind: 'body', body: archive });
      await refused(bad('bad-sha', { sha256: 'd'.repeat(64) }), /checksum of the archive of Bad bad-sha 1\.0\.0 does not match the registry/);
    });

    it('archive entries with an absolute path, ".." or a link out are refused with nothing written outside', async () => {
      const outside = path.join(scratch, 'victim.txt');
      server.set('/abs-path.tar.gz', { kind: 'body', body: tarGz([{ name: 'bin/agent', data: '#!/bin/sh' }, { name: outside, data: 'pwned' }]) });
      await refused(bad('abs-path', {}), /has an entry with an absolute path/);
      server.set('/dot-dot.tar.gz', { kind: 'body', body: tarGz([{ name: 'bin/agent', data: '#!/bin/sh' }, { name: '../../../../victim.txt', data: 'pwned' }]) });
      await refused(bad('dot-dot', {}), /has an entry that leaves its folder/);
      server.set('/link-out.tar.gz', { kind: 'body', body: tarGz([{ name: 'bin', type: 'symlink', link: scratch }, { name: 'bin/agent', data: 'pwned' }]) });
      await refused(bad('link-out', {}), /symbolic link "bin" that points outside its folder/);
      assert.ok(!fs.existsSync(outside) && !fs.existsSync(path.join(scratch, 'agent')), 'nothing written outside');
    });

    it('an archive without cmd, a download cut halfway, and a huge archive install nothing', async () => {
      server.set('/no-cmd.tar.gz', { kind: 'body', body: tarGz([{ name: 'README.md', data: 'nothing to run' }]) });
      await refused(bad('no-cmd', {}), /does not contain its command "bin\/agent"; nothing was installed/);
      server.set('/cut.tar.gz', { kind: 'truncate', body: archive, sendBytes: 2048 });
      const total = formatBytes(archive.length).replace('.', '\\.');
      await refused(bad('cut', {}), new RegExp(`the download of the archive of Bad cut 1\\.0\\.0 was interrupted after .* of ${total}`));
      server.set('/huge.tar.gz', { kind: 'huge', declaredBytes: 4 * 1024 ** 3 });
      await refused(bad('huge', {}), /is too large \(4\.0 GiB\); Switchboard installs archives up to 512 MiB/);
    });

    it('an SVG icon with script is not shown', async () => {
      server.set('/hostile-icon.tar.gz', { kind: 'body', body: archive });
      publish([bad('hostile-icon', {}, { icon: '/icons/hostile.svg' })]);
      const l = await load();
      await sb.registry.install(agentIn(l, 'hostile-icon'), l);
      try {
        await waitFor(() => pickerHas('Bad hostile-icon'), 'the agent in the picker');
        assert.strictEqual(sb.backend.agents.views().find((a) => a.name === 'Bad hostile-icon')?.icon, undefined);
      } finally {
        await sb.registry.uninstall('hostile-icon');
      }
    });

    it('a uvx agent without uvx on PATH says how to get it', async function () {
      try {
        execFileSync('uvx', ['--version'], { stdio: 'ignore' });
        this.skip(); // uv is installed on this machine: the message cannot be shown here.
      } catch {
        // Not installed: the case under test.
      }
      await assert.rejects(
        (async () => {
          publish([registryAgent('py-agent', '1.0.0', { uvx: { package: 'py-agent' } }, { name: 'Py Agent' })]);
          const l = await load();
          await sb.registry.install(agentIn(l, 'py-agent'), l);
        })(),
        // The extension's bundle has its own copy of the class: compare by name.
        (e: Error) => e.name === 'InstallError' && /Py Agent runs with uvx, which is not on your PATH\. uvx comes with uv: install uv from https:\/\/docs\.astral\.sh/.test(e.message),
      );
      nothingInstalled('py-agent', 'Py Agent');
    });
  });
});

describe('ACP Registry: registry URL and workspace trust', function () {
  this.timeout(60_000);
  let settingsFile: string;
  let previous: string | undefined;

  before(() => {
    settingsFile = path.join(workspaceRoot(), '.vscode', 'settings.json');
    previous = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    // followAgent is not restricted: seeing its workspace value tells that VS Code has read the file.
    fs.writeFileSync(settingsFile, JSON.stringify({ 'switchboard.registry.url': 'http://127.0.0.1:9/workspace-registry.json', 'switchboard.followAgent': false }));
  });
  after(() => {
    if (previous === undefined) fs.rmSync(settingsFile, { force: true });
    else fs.writeFileSync(settingsFile, previous);
  });

  it(vscode.workspace.isTrusted ? 'uses the registry URL from trusted workspace settings once the user confirmed it' : 'ignores the registry URL from untrusted workspace settings', async () => {
    const sb = await api();
    await waitFor(() => vscode.workspace.getConfiguration('switchboard').inspect('followAgent')?.workspaceValue === false, 'VS Code to read the workspace settings');
    assert.strictEqual(sb.registry.registryUrl(), 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json');
    if (vscode.workspace.isTrusted) {
      // The notification's Allow does this.
      await sb.workspaceSettings.decide('registry.url', 'http://127.0.0.1:9/workspace-registry.json', true);
      assert.strictEqual(sb.registry.registryUrl(), 'http://127.0.0.1:9/workspace-registry.json');
      await sb.workspaceSettings.revoke();
    }
  });
});
