import * as assert from 'assert';
import { mergeWithPresets } from '../../../../src/agents/agentSettings';
import type { InstalledAgent } from '../../../../src/agents/registry/installedAgents';
import { mergeRegistryAgents, registryDefinitions, resolveDefaultAgent, splitRegistryOverrides } from '../../../../src/agents/registry/registryDefinitions';

const installed = (id: string, name: string, extra: Partial<InstalledAgent> = {}): InstalledAgent => ({
  id,
  name,
  version: '1.0.0',
  kind: 'binary',
  command: `/store/${id}/1.0.0/bin/agent`,
  args: ['--acp'],
  env: { A: '1' },
  registryUrl: 'https://registry.invalid/registry.json',
  installedAt: 0,
  icon: 'data:image/svg+xml;base64,PHN2Zy8+',
  ...extra,
});

describe('registry agents as agent definitions', () => {
  const mine = installed('mine', 'Mine From Registry');

  it('an installed agent becomes a definition with its icon and an install hint', () => {
    const { agents, problems } = registryDefinitions([mine, installed('py', 'Py', { kind: 'uvx', command: 'uvx', args: ['py-agent'] })], new Map());
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(agents[0], {
      name: 'Mine From Registry',
      command: '/store/mine/1.0.0/bin/agent',
      args: ['--acp'],
      env: { A: '1' },
      source: 'registry',
      installHint: 'Install it again with "Switchboard: Add Agent from Registry…".',
      icon: 'data:image/svg+xml;base64,PHN2Zy8+',
    });
    assert.match(agents[1].installHint ?? '', /uvx comes with uv/);
  });

  it('a switchboard.agents entry keyed by the registry id overrides args and env, without a command', () => {
    const { rest, overrides } = splitRegistryOverrides({ mine: { args: ['--debug'], env: { B: '2' }, defaultMode: 'plan' }, Other: { command: 'x' } }, [mine]);
    assert.deepStrictEqual(rest, { Other: { command: 'x' } });
    const { agents, problems } = registryDefinitions([mine], overrides);
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual([agents[0].command, agents[0].args, agents[0].env, agents[0].defaultMode], ['/store/mine/1.0.0/bin/agent', ['--debug'], { A: '1', B: '2' }, 'plan']);
  });

  it('a broken override is reported once and the agent still runs as installed', () => {
    const { agents, problems } = registryDefinitions([mine], new Map([['mine', { args: 'nope' }]]));
    assert.strictEqual(agents[0].args[0], '--acp');
    assert.match(problems[0].message, /Agent "mine" in switchboard\.agents \(settings for the registry agent Mine From Registry\) was ignored: "args" must be an array of strings/);
  });

  it('replaces a preset of the same name, but a settings entry of that name wins', () => {
    const presetNamed = registryDefinitions([installed('gemini', 'Gemini CLI')], new Map()).agents;
    const merged = mergeRegistryAgents(mergeWithPresets([]), presetNamed);
    const gemini = merged.filter((a) => a.name === 'Gemini CLI');
    assert.deepStrictEqual(gemini.map((a) => a.source), ['registry']);
    assert.strictEqual(merged.findIndex((a) => a.name === 'Gemini CLI'), mergeWithPresets([]).findIndex((a) => a.name === 'Gemini CLI'), 'in place');
    const withSettings = mergeRegistryAgents(mergeWithPresets([{ name: 'Gemini CLI', command: 'gemini', args: [], env: {} }]), presetNamed);
    assert.deepStrictEqual(withSettings.filter((a) => a.name === 'Gemini CLI').map((a) => a.source), ['settings']);
    const appended = mergeRegistryAgents(mergeWithPresets([]), registryDefinitions([mine], new Map()).agents);
    assert.strictEqual(appended.at(-1)?.name, 'Mine From Registry');
  });

  it('the default agent may be given by registry id', () => {
    assert.strictEqual(resolveDefaultAgent('mine', [mine]), 'Mine From Registry');
    assert.strictEqual(resolveDefaultAgent('Codex', [mine]), 'Codex');
    assert.strictEqual(resolveDefaultAgent(undefined, [mine]), undefined);
  });
});
