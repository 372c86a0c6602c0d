import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BUILTIN_PRESETS } from '../../../src/agents/presets';
import { parseAgentEntry } from '../../../src/agents/agentSettings';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { codex } from '../../fixtures/realAgents/codex';
import { copilotRecipe } from '../../fixtures/realAgents/copilot';
import { geminiRecipe } from '../../fixtures/realAgents/gemini';
import { opencodeRecipe } from '../../fixtures/realAgents/opencode';
import { qwenRecipe } from '../../fixtures/realAgents/qwen';
import { pinned, prepareAgentEnv, presetOf, realAgentsDir, type RealAgentId, type RealAgentRecipe } from '../../fixtures/realAgents/recipe';

const PINNED: RealAgentId[] = ['claude', 'gemini', 'qwen', 'opencode', 'codex', 'copilot'];

/** The `bin` map of the pinned package as installed (scripts/install-real-agents.mjs). */
function installedBins(id: RealAgentId): Record<string, string> {
  const file = path.join(realAgentsDir(), 'node_modules', ...pinned(id).pkg.split('/'), 'package.json');
  assert.ok(fs.existsSync(file), `${pinned(id).pkg} is not installed (${file}): run node scripts/install-real-agents.mjs`);
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { name: string; version: string; bin?: string | Record<string, string> };
  assert.strictEqual(json.version, pinned(id).version);
  return typeof json.bin === 'string' ? { [json.name.split('/').pop()!]: json.bin } : (json.bin ?? {});
}

describe('presets', () => {
  it('has the six agents people run, each started the way its pinned npm package runs it', () => {
    assert.deepStrictEqual(BUILTIN_PRESETS.map((p) => p.name).sort(), PINNED.map((id) => pinned(id).preset).sort());
    for (const id of PINNED) {
      const agent = pinned(id);
      const preset = presetOf(id);
      assert.ok(preset, agent.preset);
      assert.strictEqual(preset.npmPackage, agent.pkg, `${preset.name} names the package the tests run`);
      const bins = installedBins(id);
      if (preset.command === 'npx') {
        // npx -y <pkg> runs the package's only bin (or the one named after the package).
        assert.deepStrictEqual(preset.args.slice(0, 2), ['-y', agent.pkg], preset.name);
        const names = Object.keys(bins);
        assert.ok(names.length === 1 || names.includes(agent.pkg.split('/').pop()!), `${agent.pkg} bins: ${names.join(', ')}`);
        assert.strictEqual(bins[names.length === 1 ? names[0] : agent.pkg.split('/').pop()!].replace(/^\.\//, ''), agent.bin.replace(/^\.\//, ''));
        assert.deepStrictEqual(preset.args.slice(2), agent.args, `${preset.name}: the ACP arguments the real-agent tests start it with`);
      } else {
        assert.ok(preset.command in bins, `${preset.name}: "${preset.command}" is a bin of ${agent.pkg} (${Object.keys(bins).join(', ')})`);
        assert.strictEqual(bins[preset.command].replace(/^\.\//, ''), agent.bin.replace(/^\.\//, ''));
        assert.deepStrictEqual([...preset.args], agent.args, `${preset.name}: the ACP arguments the real-agent tests start it with`);
      }
    }
  });

  it('each preset is a valid settings entry and its install hint names its npm package', () => {
    for (const preset of BUILTIN_PRESETS) {
      const result = parseAgentEntry(preset.name, { command: preset.command, args: [...preset.args], env: { ...preset.env } });
      assert.ok(result.ok, preset.name);
      assert.ok(preset.installHint.includes(preset.npmPackage) || preset.installHint.includes('nodejs.org'), preset.name);
      assert.match(preset.docsUrl, /^https:\/\//);
    }
    assert.strictEqual(new Set(BUILTIN_PRESETS.map((preset) => preset.name)).size, BUILTIN_PRESETS.length);
  });

  it("the real-agent tests start each preset's agent with the preset's env (Gemini CLI and Qwen Code: not relaunched)", () => {
    const recipes: RealAgentRecipe[] = [claudeRecipe, geminiRecipe, qwenRecipe, opencodeRecipe, codex, copilotRecipe];
    assert.deepStrictEqual(recipes.map((r) => r.id).sort(), [...PINNED].sort());
    assert.deepStrictEqual({ ...presetOf('gemini')?.env }, { GEMINI_CLI_NO_RELAUNCH: 'true' });
    assert.deepStrictEqual({ ...presetOf('qwen')?.env }, { QWEN_CODE_NO_RELAUNCH: 'true' });
    for (const recipe of recipes) {
      const preset = presetOf(recipe.id);
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-preset-env-'));
      try {
        for (const signedOut of [false, true]) {
          const env = prepareAgentEnv(recipe, { home, cwd: home, endpointUrl: 'http://127.0.0.1:9', permissions: 'ask', signedOut });
          for (const [key, value] of Object.entries(preset?.env ?? {})) assert.strictEqual(env[key], value, `${recipe.id}: ${key}`);
        }
      } finally {
        fs.rmSync(home, { recursive: true, force: true });
      }
    }
  });

  it('is frozen, so no caller can change a preset for everyone', () => {
    assert.ok(Object.isFrozen(BUILTIN_PRESETS));
    assert.ok(Object.isFrozen(BUILTIN_PRESETS[0]) && Object.isFrozen(BUILTIN_PRESETS[0].args));
  });
});
