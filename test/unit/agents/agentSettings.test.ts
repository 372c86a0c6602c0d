import * as assert from 'assert';
import { mergeWithPresets, parseAgentSettings } from '../../../src/agents/agentSettings';

/** What the agent picker shows for one settings value: the parsed entries merged with the presets. */
function resolveAgentSetting(value: unknown) {
  const parsed = parseAgentSettings(value);
  return { agents: mergeWithPresets(parsed.agents), problems: parsed.problems };
}
import { BUILTIN_PRESETS } from '../../../src/agents/presets';

describe('agentSettings: parsing switchboard.agents', () => {
  it('accepts the documented shape and fills defaults', () => {
    const result = parseAgentSettings({
      'Claude Agent': { command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'] },
      Mine: {
        command: '/opt/mine/agent',
        env: { MINE_LOG: 'debug' },
        defaultMode: 'plan',
        defaultModel: 'big',
        defaultConfigOptions: { thinking: true, effort: 'high' },
      },
    });
    assert.deepStrictEqual(result.problems, []);
    assert.deepStrictEqual(result.agents, [
      { name: 'Claude Agent', command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'], env: {} },
      {
        name: 'Mine',
        command: '/opt/mine/agent',
        args: [],
        env: { MINE_LOG: 'debug' },
        defaultMode: 'plan',
        defaultModel: 'big',
        defaultConfigOptions: { thinking: true, effort: 'high' },
      },
    ]);
  });

  it('not set (undefined, null) and empty mean no agents and no problems', () => {
    for (const value of [undefined, null, {}]) assert.deepStrictEqual(parseAgentSettings(value), { agents: [], problems: [] });
  });

  it('a value that is not an object is one problem for the whole setting', () => {
    for (const [value, shown] of [
      [[{ command: 'x' }], 'an array'],
      ['npx', 'the string "npx"'],
      [42, 'the number 42'],
    ] as const) {
      const result = parseAgentSettings(value);
      assert.deepStrictEqual(result.agents, []);
      assert.deepStrictEqual(result.problems, [
        { entry: undefined, message: `"switchboard.agents" must be an object mapping agent names to {command, args, env}, but it is ${shown}.` },
      ]);
    }
  });

  it('reports one clear problem per bad entry, and keeps the good ones', () => {
    const result = parseAgentSettings({
      Good: { command: 'good-agent' },
      NoCommand: { args: ['--acp'] },
      EmptyCommand: { command: '   ' },
      NumberCommand: { command: 42 },
      BadArgs: { command: 'x', args: '--acp' },
      BadArgItem: { command: 'x', args: ['--ok', 3] },
      BadEnv: { command: 'x', env: { PORT: 8080 } },
      EnvArray: { command: 'x', env: ['A=1'] },
      Unknown: { command: 'x', default_model: 'm', colour: 'red' },
      NotObject: 'npx my-agent',
      Null: null,
      Several: { command: '', args: [1], extra: true },
      BadOptions: { command: 'x', defaultConfigOptions: { a: 1 } },
      Registry: { type: 'registry' },
      Good2: { type: 'custom', command: 'pasted-from-zed', args: [] },
      '': { command: 'x' },
    });
    assert.deepStrictEqual(result.agents.map((agent) => agent.name), ['Good', 'Good2']);
    const byEntry = Object.fromEntries(result.problems.map((problem) => [problem.entry, problem.message]));
    const prefix = (name: string) => `Agent "${name}" in switchboard.agents was ignored: `;
    assert.deepStrictEqual(byEntry, {
      NoCommand: `${prefix('NoCommand')}"command" is missing (the executable to start, e.g. "npx" or "/usr/local/bin/my-agent").`,
      EmptyCommand: `${prefix('EmptyCommand')}"command" must not be empty.`,
      NumberCommand: `${prefix('NumberCommand')}"command" must be a string, not the number 42.`,
      BadArgs: `${prefix('BadArgs')}"args" must be an array of strings, not the string "--acp".`,
      BadArgItem: `${prefix('BadArgItem')}each item of "args" must be a string, not the number 3 (at args[1]).`,
      BadEnv: `${prefix('BadEnv')}each value in "env" must be a string, not the number 8080 (at env.PORT).`,
      EnvArray: `${prefix('EnvArray')}"env" must be an object of strings, not an array.`,
      Unknown: `${prefix('Unknown')}unknown keys "default_model" (did you mean "defaultModel"?), "colour"; allowed keys are command, args, env, url, headers, defaultMode, defaultModel, defaultConfigOptions.`,
      NotObject: `${prefix('NotObject')}the entry must be an object like {"command": "...", "args": []}, but it is the string "npx my-agent".`,
      Null: `${prefix('Null')}the entry must be an object like {"command": "...", "args": []}, but it is null.`,
      Several: `${prefix('Several')}"command" must not be empty; each item of "args" must be a string, not the number 1 (at args[0]); unknown key "extra"; allowed keys are command, args, env, url, headers, defaultMode, defaultModel, defaultConfigOptions.`,
      BadOptions: `${prefix('BadOptions')}each value in "defaultConfigOptions" must be a string or a boolean, not the number 1 (at defaultConfigOptions.a).`,
      Registry: `${prefix('Registry')}"type" "registry" is not supported (only "custom" entries with a "command" can be started).`,
      '': `${prefix('')}the agent name is empty.`,
    });
  });

  it('trims the command', () => {
    assert.strictEqual(parseAgentSettings({ A: { command: '  gemini ' } }).agents[0].command, 'gemini');
  });
});

describe('agentSettings: merging with the built-in presets', () => {
  it('offers every preset when the setting is empty, with their install hints', () => {
    const merged = mergeWithPresets([]);
    assert.deepStrictEqual(merged.map((agent) => agent.name), ['Claude Agent', 'Gemini CLI', 'Codex', 'Qwen Code', 'OpenCode', 'GitHub Copilot']);
    for (const agent of merged) {
      assert.strictEqual(agent.source, 'preset');
      assert.ok(agent.installHint && agent.installHint.length > 10);
    }
  });

  it('a user entry with a preset name overrides it in place; other user entries follow', () => {
    const { agents, problems } = resolveAgentSetting({
      Mine: { command: 'mine' },
      'Gemini CLI': { command: 'gemini', args: ['--acp', '--model', 'x'], env: { GEMINI_API_KEY_FILE: '/k' } },
      Codex: { command: '/opt/codex-acp' },
      Broken: { args: [] },
    });
    assert.deepStrictEqual(agents.map((agent) => [agent.name, agent.source]), [
      ['Claude Agent', 'preset'],
      ['Gemini CLI', 'settings'],
      ['Codex', 'settings'],
      ['Qwen Code', 'preset'],
      ['OpenCode', 'preset'],
      ['GitHub Copilot', 'preset'],
      ['Mine', 'settings'],
    ]);
    const gemini = agents[1];
    assert.deepStrictEqual(gemini.args, ['--acp', '--model', 'x']);
    assert.deepStrictEqual(gemini.env, { GEMINI_API_KEY_FILE: '/k' });
    // Same command as the preset: its install hint still applies. Another executable: it does not.
    assert.strictEqual(gemini.installHint, BUILTIN_PRESETS[1].installHint);
    assert.strictEqual(agents[2].installHint, undefined);
    assert.strictEqual(agents.find((a) => a.name === 'Mine')?.installHint, undefined);
    assert.deepStrictEqual(problems.map((problem) => problem.entry), ['Broken']);
  });

  it('a broken override does not hide the preset', () => {
    const { agents, problems } = resolveAgentSetting({ 'Claude Agent': { command: 7 } });
    assert.strictEqual(agents[0].source, 'preset');
    assert.strictEqual(agents[0].command, 'npx');
    assert.strictEqual(problems.length, 1);
  });
});
