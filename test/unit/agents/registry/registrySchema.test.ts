import * as assert from 'assert';
import { parseRegistry, parseRegistryText } from '../../../../src/agents/registry/registrySchema';

const good = {
  id: 'my-agent',
  name: 'My Agent',
  version: '1.2.3',
  description: 'An agent',
  repository: 'https://example.invalid/my-agent',
  authors: ['Me'],
  license: 'MIT',
  icon: 'https://example.invalid/my-agent.svg',
  distribution: {
    npx: { package: '@me/my-agent@1.2.3', args: ['--acp'], env: { LOG: '1' } },
    binary: { 'linux-x86_64': { archive: 'https://example.invalid/a.tar.gz', cmd: './bin/agent', sha256: 'a'.repeat(64) } },
  },
};

function problemsOf(agent: Record<string, unknown>): string {
  const result = parseRegistry({ version: '1.0.0', agents: [good, agent] });
  assert.ok(result.ok);
  assert.strictEqual(result.registry.agents.length, 1, 'the good agent is kept');
  assert.strictEqual(result.problems.length, 1);
  return result.problems[0];
}

describe('registry schema', () => {
  it('accepts the documented format and keeps unknown fields and distribution kinds', () => {
    const result = parseRegistry({ version: '1.0.0', agents: [{ ...good, extra: 1, distribution: { ...good.distribution, docker: { image: 'x' } } }], extensions: [] });
    assert.ok(result.ok);
    assert.deepStrictEqual(result.problems, []);
    const agent = result.registry.agents[0];
    assert.strictEqual(agent.id, 'my-agent');
    assert.strictEqual((agent as Record<string, unknown>).extra, 1);
    assert.deepStrictEqual((agent.distribution as Record<string, unknown>).docker, { image: 'x' });
    assert.strictEqual(agent.distribution.binary?.['linux-x86_64']?.cmd, './bin/agent');
  });

  it('names the missing field of an agent and leaves only that agent out', () => {
    const { version: _v, ...noVersion } = good;
    assert.match(problemsOf({ ...noVersion, id: 'other' }), /agent "other" \(#2\) was left out: "version" is missing/);
    const { distribution: _d, ...noDistribution } = good;
    assert.match(problemsOf({ ...noDistribution, id: 'other' }), /"distribution" is missing/);
    assert.match(problemsOf({ ...good, id: 'other', name: 42 }), /"name" must be a string, not the number 42/);
  });

  it('rejects ids and versions that could not be folder names', () => {
    for (const id of ['../evil', 'My Agent', 'a/b', '', '..', 'UPPER']) assert.match(problemsOf({ ...good, id }), /"id" must be lowercase/, id);
    for (const version of ['../1', 'latest', '1.0/2', '']) assert.match(problemsOf({ ...good, id: 'other', version }), /"version" must look like 1\.2\.3/, version);
    for (const version of ['1.0.0', 'v2.3', '0.1.0-beta.2', '1.2.3+build.5']) {
      const result = parseRegistry({ agents: [{ ...good, version }] });
      assert.ok(result.ok && result.problems.length === 0, version);
    }
  });

  it('checks distributions: package not an option, binary fields, checksum shape', () => {
    assert.match(problemsOf({ ...good, id: 'other', distribution: { npx: { package: '--registry=http://evil' } } }), /"distribution\.npx\.package" must not start with "-"/);
    assert.match(problemsOf({ ...good, id: 'other', distribution: { uvx: { args: [] } } }), /"distribution\.uvx\.package" is missing/);
    assert.match(problemsOf({ ...good, id: 'other', distribution: { npx: { package: 'x', args: 'a b' } } }), /"distribution\.npx\.args" must be an array of strings/);
    assert.match(
      problemsOf({ ...good, id: 'other', distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.zip' } } } }),
      /"cmd" is missing \(at "distribution\.binary\.linux-x86_64\.cmd"\)/,
    );
    assert.match(
      problemsOf({ ...good, id: 'other', distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.zip', cmd: 'a', sha256: 'abc' } } } }),
      /"sha256" must be 64 hexadecimal digits/,
    );
  });

  it('a duplicate id is left out', () => {
    const result = parseRegistry({ agents: [good, good] });
    assert.ok(result.ok);
    assert.strictEqual(result.registry.agents.length, 1);
    assert.match(result.problems[0], /same "id"/);
  });

  it('fails as a whole when it is not JSON, not an object, has no agents array, or no valid agent', () => {
    const notJson = parseRegistryText('<html>oops</html>');
    assert.ok(!notJson.ok && /not JSON/.test(notJson.error));
    const notObject = parseRegistry([good]);
    assert.ok(!notObject.ok && /must be a JSON object/.test(notObject.error));
    const noAgents = parseRegistry({ version: '1' });
    assert.ok(!noAgents.ok && /"agents" must be an array, but it is missing/.test(noAgents.error));
    const allBad = parseRegistry({ agents: [{ id: 'x' }] });
    assert.ok(!allBad.ok && /no agent in the registry is valid.*"name" is missing/.test(allBad.error), JSON.stringify(allBad));
    const empty = parseRegistry({ agents: [] });
    assert.ok(empty.ok && empty.registry.agents.length === 0);
  });
});
