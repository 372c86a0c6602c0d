import * as assert from 'assert';
import { BUILTIN_PRESETS, findPreset } from '../../../src/agents/presets';
import { parseAgentEntry } from '../../../src/agents/agentSettings';

describe('presets', () => {
  it('has the five documented agents with the command lines their packages document', () => {
    const lines = Object.fromEntries(BUILTIN_PRESETS.map((preset) => [preset.name, [preset.command, ...preset.args].join(' ')]));
    assert.deepStrictEqual(lines, {
      'Claude Agent': 'npx -y @zed-industries/claude-agent-acp',
      'Gemini CLI': 'gemini --acp',
      Codex: 'npx -y @zed-industries/codex-acp',
      'Qwen Code': 'qwen --acp',
      OpenCode: 'opencode acp',
    });
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

  it('is frozen, so no caller can change a preset for everyone', () => {
    assert.ok(Object.isFrozen(BUILTIN_PRESETS));
    assert.ok(Object.isFrozen(BUILTIN_PRESETS[0]) && Object.isFrozen(BUILTIN_PRESETS[0].args));
  });

  it('findPreset matches exact names only', () => {
    assert.strictEqual(findPreset('OpenCode')?.npmPackage, 'opencode-ai');
    assert.strictEqual(findPreset('opencode'), undefined);
  });
});
