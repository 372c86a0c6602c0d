import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { removeLeftovers } from '../../../../src/agents/registry/agentFolders';
import { InstallError, RegistryInstaller } from '../../../../src/agents/registry/installer';
import type { InstallStep } from '../../../../src/agents/registry/installer';
import { parseRegistry, type RegistryAgent } from '../../../../src/agents/registry/registrySchema';
import { agentTarGz, agentZip, sha256, tarGz } from '../../../fixtures/registry/archives';
import { registryAgent, SAFE_SVG, SCRIPT_SVG, startRegistryServer, type RegistryServer } from '../../../fixtures/registry/registryServer';

function agentOf(entry: Record<string, unknown>): RegistryAgent {
  const parsed = parseRegistry({ agents: [entry] });
  assert.ok(parsed.ok && parsed.problems.length === 0, JSON.stringify(parsed));
  return parsed.registry.agents[0];
}

/** Runs the installed command and completes ACP initialize: the install really works. */
async function initializeAgent(command: string, args: string[]): Promise<string> {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } }) + '\n');
    let out = '';
    for await (const chunk of child.stdout) {
      out += String(chunk);
      if (out.includes('\n')) break;
    }
    return (JSON.parse(out.split('\n')[0]) as { result: { agentInfo: { name: string } } }).result.agentInfo.name;
  } finally {
    child.kill();
  }
}

describe('registry installer', function () {
  this.timeout(30_000);
  let server: RegistryServer;
  let root: string;
  let installer: RegistryInstaller;
  const archive = agentTarGz();

  beforeEach(async () => {
    server = await startRegistryServer();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-registry-install-'));
    installer = new RegistryInstaller({ root, fetch, platform: 'linux-x86_64' });
    server.set('/agent-1.0.0.tar.gz', { kind: 'body', body: archive });
    server.set('/icon.svg', { kind: 'body', body: SAFE_SVG, contentType: 'image/svg+xml' });
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const binaryAgent = (version = '1.0.0', target: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    agentOf(
      registryAgent('bin-agent', version, { binary: { 'linux-x86_64': { archive: `agent-${version}.tar.gz`, cmd: './bin/agent', args: ['--minimal-caps'], env: { A: '1' }, sha256: sha256(archive), ...target } } }, { icon: 'icon.svg', ...extra }),
    );
  const versionFolders = () => (fs.existsSync(path.join(root, 'bin-agent')) ? fs.readdirSync(path.join(root, 'bin-agent')) : []);

  it('downloads, checks, unpacks and records a binary agent that then runs', async () => {
    const steps: InstallStep['step'][] = [];
    const record = await installer.install({ agent: binaryAgent(), registryUrl: server.registryUrl, onProgress: (s) => steps.push(s.step) });
    assert.strictEqual(record.command, path.join(root, 'bin-agent', '1.0.0', 'bin', 'agent'));
    assert.deepStrictEqual([record.kind, record.version, record.args, record.env], ['binary', '1.0.0', ['--minimal-caps'], { A: '1' }]);
    assert.ok(record.icon?.startsWith('data:image/svg+xml;base64,'));
    assert.ok(fs.statSync(record.command).mode & 0o100, 'cmd is executable');
    assert.deepStrictEqual([steps[0], steps.at(-2), steps.at(-1)], ['download', 'extract', 'finish']);
    assert.deepStrictEqual((await installer.installed.list()).map((a) => a.id), ['bin-agent']);
    assert.strictEqual(await initializeAgent(record.command, record.args), 'fake-agent');
    assert.deepStrictEqual(fs.readdirSync(root).sort(), ['.downloads', '.staging', 'bin-agent', 'installed.json']);
    assert.deepStrictEqual([...fs.readdirSync(path.join(root, '.downloads')), ...fs.readdirSync(path.join(root, '.staging'))], [], 'no scratch left');
  });

  it('installs from a zip too', async () => {
    const zipped = await agentZip();
    server.set('/agent.zip', { kind: 'body', body: zipped });
    const record = await installer.install({ agent: binaryAgent('1.0.0', { archive: '/agent.zip', sha256: sha256(zipped) }), registryUrl: server.registryUrl });
    assert.strictEqual(await initializeAgent(record.command, record.args), 'fake-agent');
  });

  it('records npx and uvx agents without downloading anything', async () => {
    const npx = await installer.install({ agent: agentOf(registryAgent('npx-agent', '2.0.0', { npx: { package: '@x/agent@2.0.0', args: ['--acp'], env: { K: 'v' } } })), registryUrl: server.registryUrl });
    assert.deepStrictEqual([npx.kind, npx.command, npx.args, npx.env], ['npx', 'npx', ['-y', '@x/agent@2.0.0', '--acp'], { K: 'v' }]);
    const uvx = await installer.install({ agent: agentOf(registryAgent('uvx-agent', '0.1.0', { uvx: { package: 'agent-py' } })), registryUrl: server.registryUrl });
    assert.deepStrictEqual([uvx.kind, uvx.command, uvx.args], ['uvx', 'uvx', ['agent-py']]);
    assert.deepStrictEqual((await installer.installed.list()).map((a) => a.id).sort(), ['npx-agent', 'uvx-agent']);
    assert.deepStrictEqual(fs.readdirSync(root), ['installed.json']);
  });

  it('an SVG icon with script is not kept', async () => {
    server.set('/icon.svg', { kind: 'body', body: SCRIPT_SVG });
    const record = await installer.install({ agent: binaryAgent(), registryUrl: server.registryUrl });
    assert.strictEqual(record.icon, undefined);
  });

  it('an update replaces the version folder only once the new one is in place; uninstall removes the files', async () => {
    await installer.install({ agent: binaryAgent('1.0.0'), registryUrl: server.registryUrl });
    server.set('/agent-1.1.0.tar.gz', { kind: 'body', body: archive });
    const updated = await installer.install({ agent: binaryAgent('1.1.0'), registryUrl: server.registryUrl });
    assert.strictEqual(updated.version, '1.1.0');
    assert.deepStrictEqual(versionFolders(), ['1.1.0']);
    assert.strictEqual((await installer.uninstall('bin-agent'))?.version, '1.1.0');
    assert.ok(!fs.existsSync(path.join(root, 'bin-agent')));
    assert.deepStrictEqual(await installer.installed.list(), []);
  });

  it('a failed update leaves the installed version working', async () => {
    await installer.install({ agent: binaryAgent('1.0.0'), registryUrl: server.registryUrl });
    server.set('/agent-1.1.0.tar.gz', { kind: 'truncate', body: archive, sendBytes: 500 });
    await assert.rejects(installer.install({ agent: binaryAgent('1.1.0'), registryUrl: server.registryUrl }), /interrupted/);
    assert.deepStrictEqual(versionFolders(), ['1.0.0']);
    assert.strictEqual((await installer.installed.get('bin-agent'))?.version, '1.0.0');
  });

  const nothingInstalled = async () => {
    assert.deepStrictEqual(versionFolders(), []);
    assert.deepStrictEqual(await installer.installed.list(), []);
    for (const scratch of ['.downloads', '.staging']) {
      const folder = path.join(root, scratch);
      assert.deepStrictEqual(fs.existsSync(folder) ? fs.readdirSync(folder) : [], [], `${scratch} is empty`);
    }
  };

  it('a checksum mismatch refuses and deletes the download', async () => {
    await assert.rejects(installer.install({ agent: binaryAgent('1.0.0', { sha256: 'c'.repeat(64) }), registryUrl: server.registryUrl }), /checksum .* does not match/);
    await nothingInstalled();
  });

  it('an archive without cmd installs nothing', async () => {
    const other = tarGz([{ name: 'README', data: 'no binary here' }]);
    server.set('/agent-1.0.0.tar.gz', { kind: 'body', body: other });
    await assert.rejects(
      installer.install({ agent: binaryAgent('1.0.0', { sha256: sha256(other) }), registryUrl: server.registryUrl }),
      (e: Error) => e instanceof InstallError && /does not contain its command "\.\/bin\/agent"; nothing was installed/.test(e.message),
    );
    await nothingInstalled();
  });

  it('a cmd outside the archive, a hostile archive, a cut download or a huge one install nothing', async () => {
    await assert.rejects(installer.install({ agent: binaryAgent('1.0.0', { cmd: '../../bin/sh' }), registryUrl: server.registryUrl }), /"cmd" \("\.\.\/\.\.\/bin\/sh"\) must be a relative path inside its archive/);
    await assert.rejects(installer.install({ agent: binaryAgent('1.0.0', { cmd: '/bin/sh' }), registryUrl: server.registryUrl }), /must be a relative path/);
    const evil = tarGz([{ name: 'bin/agent', data: '#!/bin/sh' }, { name: '../../escape.txt', data: 'x' }]);
    server.set('/agent-1.0.0.tar.gz', { kind: 'body', body: evil });
    await assert.rejects(installer.install({ agent: binaryAgent('1.0.0', { sha256: sha256(evil) }), registryUrl: server.registryUrl }), /leaves its folder/);
    assert.ok(!fs.existsSync(path.join(root, '..', 'escape.txt')));
    server.set('/agent-1.0.0.tar.gz', { kind: 'truncate', body: archive, sendBytes: 1000 });
    await assert.rejects(installer.install({ agent: binaryAgent(), registryUrl: server.registryUrl }), /interrupted after/);
    server.set('/agent-1.0.0.tar.gz', { kind: 'huge', declaredBytes: 3 * 1024 ** 3 });
    await assert.rejects(installer.install({ agent: binaryAgent(), registryUrl: server.registryUrl }), /too large \(3\.0 GiB\); Switchboard installs archives up to 512 MiB/);
    await nothingInstalled();
  });

  it('cancelling mid-download installs nothing', async () => {
    server.set('/agent-1.0.0.tar.gz', { kind: 'stall', body: archive, sendBytes: 1000 });
    const controller = new AbortController();
    const install = installer.install({
      agent: binaryAgent(),
      registryUrl: server.registryUrl,
      signal: controller.signal,
      onProgress: (s) => s.step === 'download' && controller.abort(),
    });
    await assert.rejects(install, (e: Error) => e.name === 'AbortError');
    await nothingInstalled();
  });

  it('an agent with no build for this machine says which platforms it supports', async () => {
    const mac = agentOf(registryAgent('mac-only', '1.0.0', { binary: { 'darwin-aarch64': { archive: 'a.zip', cmd: 'a' } } }));
    await assert.rejects(installer.install({ agent: mac, registryUrl: server.registryUrl }), /no build for this machine \(linux-x86_64\); it supports darwin-aarch64/);
    await nothingInstalled();
  });

  it('removeLeftovers removes old leftovers of interrupted installs and unrecorded folders', async () => {
    await installer.install({ agent: binaryAgent(), registryUrl: server.registryUrl });
    fs.mkdirSync(path.join(root, '.staging', 'x-1'), { recursive: true });
    fs.mkdirSync(path.join(root, 'bin-agent', '0.9.0'), { recursive: true });
    fs.mkdirSync(path.join(root, 'ghost', '1.0.0'), { recursive: true });
    await removeLeftovers(root, await installer.installed.list(), 60_000);
    assert.ok(fs.existsSync(path.join(root, 'ghost')), 'recent leftovers may belong to another window installing now');
    await removeLeftovers(root, await installer.installed.list(), 0);
    assert.deepStrictEqual(fs.readdirSync(path.join(root, '.staging')), []);
    assert.deepStrictEqual(versionFolders(), ['1.0.0']);
    assert.ok(!fs.existsSync(path.join(root, 'ghost')));
  });
});
