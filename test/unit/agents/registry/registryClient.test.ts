import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RegistryClient, RegistryUnavailableError } from '../../../../src/agents/registry/registryClient';
import { registryAgent, startRegistryServer, type RegistryServer } from '../../../fixtures/registry/registryServer';

describe('registry client: fetch and offline cache', () => {
  let server: RegistryServer;
  let dir: string;
  let client: RegistryClient;
  const agentA = registryAgent('agent-a', '1.0.0', { npx: { package: 'agent-a@1.0.0' } });

  beforeEach(async () => {
    server = await startRegistryServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-registry-client-'));
    client = new RegistryClient({ fetch, cacheFile: path.join(dir, 'cache.json'), timeoutMs: 5_000 });
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads the list from the network and keeps a copy', async () => {
    server.setJson('/registry.json', { version: '1.0.0', agents: [agentA] });
    const load = await client.load(server.registryUrl);
    assert.strictEqual(load.source, 'network');
    assert.deepStrictEqual(load.registry.agents.map((a) => a.id), ['agent-a']);
    assert.ok(fs.existsSync(path.join(dir, 'cache.json')));
  });

  it('uses the cached copy when the network is down, saying why', async () => {
    server.setJson('/registry.json', { agents: [agentA] });
    await client.load(server.registryUrl);
    const url = server.registryUrl;
    await server.close();
    const load = await client.load(url);
    assert.strictEqual(load.source, 'cache');
    assert.deepStrictEqual(load.registry.agents.map((a) => a.id), ['agent-a']);
    assert.match(load.networkError ?? '', /could not download the agent registry from http:\/\/127\.0\.0\.1:\d+\/registry\.json: fetch failed \(/);
    server = await startRegistryServer();
  });

  it('a list that is not JSON or fails the schema does not replace the cached copy; the error says what is wrong', async () => {
    server.setJson('/registry.json', { agents: [agentA] });
    await client.load(server.registryUrl);
    server.set('/registry.json', { kind: 'body', body: '<html>maintenance</html>' });
    let load = await client.load(server.registryUrl);
    assert.strictEqual(load.source, 'cache');
    assert.match(load.networkError ?? '', /is not a valid agent registry: the registry is not JSON/);
    server.setJson('/registry.json', { agents: [{ id: 'agent-b', version: '1.0.0' }] });
    load = await client.load(server.registryUrl);
    assert.strictEqual(load.source, 'cache');
    assert.match(load.networkError ?? '', /no agent in the registry is valid\. agent "agent-b" \(#1\) was left out: "name" is missing; "distribution" is missing/);
    assert.deepStrictEqual(load.registry.agents.map((a) => a.id), ['agent-a'], 'the good copy is still there');
  });

  it('without a cached copy, an unreachable or broken list is an error that says so', async () => {
    server.set('/registry.json', { kind: 'status', status: 503 });
    await assert.rejects(client.load(server.registryUrl), (e: Error) => e instanceof RegistryUnavailableError && /the server answered 503/.test(e.message));
    await assert.rejects(client.load('ftp://example.invalid/registry.json'), /must be an http or https URL/);
    await assert.rejects(client.load('not a url'), /is not a valid URL/);
  });

  it('a list that stalls midway falls back to the cached copy', async () => {
    server.setJson('/registry.json', { agents: [agentA] });
    await client.load(server.registryUrl);
    server.set('/registry.json', { kind: 'stall', body: Buffer.from(JSON.stringify({ agents: [agentA] })), sendBytes: 10 });
    const quick = new RegistryClient({ fetch, cacheFile: path.join(dir, 'cache.json'), timeoutMs: 300 });
    const load = await quick.load(server.registryUrl);
    assert.strictEqual(load.source, 'cache');
    assert.match(load.networkError ?? '', /stopped sending within 0 s/);
  });

  it('cancelling rejects instead of falling back', async () => {
    server.set('/registry.json', { kind: 'stall', body: Buffer.from('{"agents": []}'), sendBytes: 5 });
    const controller = new AbortController();
    const loading = client.load(server.registryUrl, controller.signal);
    await server.requested('/registry.json');
    controller.abort();
    await assert.rejects(loading, (e: Error) => e.name === 'AbortError');
  });

  it('a cached copy of another registry URL is not used', async () => {
    server.setJson('/registry.json', { agents: [agentA] });
    await client.load(server.registryUrl);
    await assert.rejects(client.load(`${server.base}/other.json`), RegistryUnavailableError);
  });

  it('refuses an oversized list', async () => {
    const small = new RegistryClient({ fetch, cacheFile: path.join(dir, 'cache.json'), maxBytes: 100 });
    server.setJson('/registry.json', { agents: [agentA] });
    await assert.rejects(small.load(server.registryUrl), /too large/);
  });
});
