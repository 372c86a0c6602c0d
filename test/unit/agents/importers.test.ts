import * as assert from 'assert';
import { parseAgentSettings } from '../../../src/agents/agentSettings';
import { agentSettingsEntry, importJetBrainsAcpJson, importZedSettings } from '../../../src/agents/importers';
import { parseJsonc } from '../../../src/agents/parseJsonc';

/** A Zed settings.json as people have them: comments, trailing commas, other settings around. */
const ZED_SETTINGS = `// Zed settings
//
// For information on how to configure Zed, see the Zed documentation.
{
  "theme": "One Dark", // inline comment
  "url": "https://example.com/not//a/comment", /* block
     comment */
  "agent_servers": {
    // Registry agents: Zed downloads them, there is no command here.
    "claude-acp": {
      "type": "registry",
      "env": { "CLAUDE_CODE_EXECUTABLE": "/opt/claude" },
    },
    "gemini": { "ignore_system_version": false },
    "My Agent": {
      "type": "custom",
      "command": "/usr/local/bin/my-agent",
      "args": ["--acp", "--flag=/*not a comment*/",],
      "env": { "MY_AGENT_LOG": "debug", },
      "default_mode": "plan",
      "default_model": "big-model",
      "favorite_models": ["a", "b"],
    },
    "OpenCode": { "command": "opencode", "args": ["acp"] },
    "Legacy nested": { "command": { "path": "/opt/legacy", "args": ["serve"], "env": { "X": "1" } } },
    "Broken": { "type": "custom", "command": "", "args": "oops" },
    "Worse": 42,
    "ext-agent": { "type": "extension" },
  },
}
`;

describe('importers: Zed settings.json', () => {
  it('imports custom agents from JSONC and reports registry/built-in ones as skipped with a reason', () => {
    const result = importZedSettings(ZED_SETTINGS);
    assert.deepStrictEqual(result.agents, [
      {
        name: 'My Agent',
        command: '/usr/local/bin/my-agent',
        args: ['--acp', '--flag=/*not a comment*/'],
        env: { MY_AGENT_LOG: 'debug' },
        defaultMode: 'plan',
        defaultModel: 'big-model',
      },
      { name: 'OpenCode', command: 'opencode', args: ['acp'], env: {} },
      { name: 'Legacy nested', command: '/opt/legacy', args: ['serve'], env: { X: '1' } },
    ]);
    assert.deepStrictEqual(result.skipped, [
      {
        entry: 'claude-acp',
        message:
          'Zed agent "claude-acp" was skipped: it is installed from the ACP registry by Zed and has no "command" to import. Use Switchboard\'s built-in "Claude Agent" preset instead (copy its "env" values too).',
      },
      {
        entry: 'gemini',
        message: 'Zed agent "gemini" was skipped: it is one of Zed\'s built-in agents and has no "command" to import. Use Switchboard\'s built-in "Gemini CLI" preset instead.',
      },
      {
        entry: 'ext-agent',
        message: 'Zed agent "ext-agent" was skipped: it is provided by a Zed extension and has no "command" to import. Add it by hand with the command that starts it.',
      },
    ]);
    assert.deepStrictEqual(result.problems, [
      {
        entry: 'Broken',
        message: 'Zed agent "Broken" was not imported: "command" must not be empty; "args" must be an array of strings, not the string "oops".',
      },
      { entry: 'Worse', message: 'Zed agent "Worse" was not imported: it must be an object, but it is the number 42.' },
    ]);
  });

  it('reports a file that is not JSON, or has no agent_servers, as one problem', () => {
    const broken = importZedSettings('{ "agent_servers": { "a": { "command": "x" } ');
    assert.deepStrictEqual([broken.agents, broken.skipped], [[], []]);
    assert.deepStrictEqual(broken.problems, [
      {
        entry: undefined,
        message: 'The Zed settings.json file is not valid JSON: a closing "}" was expected at the end of the file (line 1, column 46); 1 more problem after it.',
      },
    ]);
    assert.deepStrictEqual(importJetBrainsAcpJson('').problems, [{ entry: undefined, message: 'The JetBrains acp.json file is not valid JSON: the file is empty.' }]);

    assert.deepStrictEqual(importZedSettings('{ "theme": "x", }').problems, [
      { entry: undefined, message: 'The Zed settings.json file has no "agent_servers" section, so there is nothing to import.' },
    ]);
    assert.deepStrictEqual(importZedSettings('[]').problems, [{ entry: undefined, message: 'The Zed settings.json file must contain an object, but it contains an array.' }]);
    assert.deepStrictEqual(importZedSettings('{"agent_servers": []}').problems, [
      { entry: undefined, message: '"agent_servers" in the Zed settings.json file must be an object, but it is an array.' },
    ]);
  });
});

describe('importers: what is written into switchboard.agents', () => {
  const ZED_DEFAULTS = JSON.stringify({
    agent_servers: {
      Pi: {
        type: 'custom',
        command: 'pi-acp',
        default_mode: 'high',
        default_model: 'local/scripted',
        default_config_options: { thought_level: 'high', web_search: false },
      },
      Plain: { command: { path: '/opt/plain', args: ['serve'] } },
    },
  });

  it('keeps a Zed entry\'s default_mode, default_model and default_config_options under Switchboard\'s names', () => {
    const written = Object.fromEntries(importZedSettings(ZED_DEFAULTS).agents.map((a) => [a.name, agentSettingsEntry(a)]));
    assert.deepStrictEqual(written, {
      Pi: { command: 'pi-acp', args: [], defaultMode: 'high', defaultModel: 'local/scripted', defaultConfigOptions: { thought_level: 'high', web_search: false } },
      Plain: { command: '/opt/plain', args: ['serve'] },
    });
    // Read back as the setting it becomes: the same agents, defaults included.
    const reread = parseAgentSettings(written);
    assert.deepStrictEqual(reread.problems, []);
    assert.deepStrictEqual(reread.agents, importZedSettings(ZED_DEFAULTS).agents);
  });

  it('takes the same defaults from a JetBrains entry pasted from Zed', () => {
    const result = importJetBrainsAcpJson(JSON.stringify({ agent_servers: { Droid: { command: 'droid', args: ['exec', '--output-format', 'acp'], default_mode: 'auto-high' } } }));
    assert.deepStrictEqual(result.agents.map(agentSettingsEntry), [{ command: 'droid', args: ['exec', '--output-format', 'acp'], defaultMode: 'auto-high' }]);
  });

  it('reports defaults of the wrong type as a problem of that entry, and imports the others', () => {
    const result = importZedSettings(
      JSON.stringify({ agent_servers: { Bad: { command: 'x', default_mode: 3, default_config_options: { a: 1 } }, Good: { command: 'y', default_mode: 'plan' } } }),
    );
    assert.deepStrictEqual(result.agents.map((a) => a.name), ['Good']);
    assert.deepStrictEqual(result.problems, [
      {
        entry: 'Bad',
        message: 'Zed agent "Bad" was not imported: "defaultMode" must be a string, not the number 3; each value in "defaultConfigOptions" must be a string or a boolean, not the number 1 (at defaultConfigOptions.a).',
      },
    ]);
  });
});

describe('importers: JetBrains acp.json', () => {
  it('imports {agent_servers: {name: {command, args, env}}}, ignoring JetBrains-only keys', () => {
    const text = JSON.stringify({
      default_mcp_settings: { use_idea_mcp: true },
      agent_servers: {
        OpenCode: { command: '/absolute/path/bin/opencode', args: ['acp'] },
        OpenHands: { command: 'openhands', args: ['acp', '--llm-approve'], env: { LLM_MODEL: 'x' }, use_idea_mcp: false },
        'No command': { args: ['acp'] },
        'Bad env': { command: 'x', env: { A: 1 } },
      },
    });
    const result = importJetBrainsAcpJson(text);
    assert.deepStrictEqual(result.agents, [
      { name: 'OpenCode', command: '/absolute/path/bin/opencode', args: ['acp'], env: {} },
      { name: 'OpenHands', command: 'openhands', args: ['acp', '--llm-approve'], env: { LLM_MODEL: 'x' } },
    ]);
    assert.deepStrictEqual(result.skipped, []);
    assert.deepStrictEqual(result.problems, [
      { entry: 'No command', message: 'JetBrains agent "No command" was not imported: "command" is missing (the executable to start, e.g. "npx" or "/usr/local/bin/my-agent").' },
      { entry: 'Bad env', message: 'JetBrains agent "Bad env" was not imported: each value in "env" must be a string, not the number 1 (at env.A).' },
    ]);
  });

  it('tolerates comments and trailing commas there too', () => {
    const result = importJetBrainsAcpJson('{\n // mine\n "agent_servers": { "A": { "command": "a", }, },\n}');
    assert.deepStrictEqual(result.agents, [{ name: 'A', command: 'a', args: [], env: {} }]);
  });
});

describe('parseJsonc', () => {
  it('keeps strings intact (slashes, escaped quotes, commas before brackets inside strings)', () => {
    const text = '{"a": "http://x//y", "b": "say \\"/* hi */\\"", "c": ",]", "d": [1, 2,], /* x */ "e": {"f": 1,},}';
    assert.deepStrictEqual(parseJsonc(text), { ok: true, value: { a: 'http://x//y', b: 'say "/* hi */"', c: ',]', d: [1, 2], e: { f: 1 } } });
  });

  it('handles a BOM and CRLF line comments', () => {
    assert.deepStrictEqual(parseJsonc('\ufeff{"a": 1 // x\r\n}'), { ok: true, value: { a: 1 } });
  });

  it('says what is wrong and where: line and column, counted as an editor shows them', () => {
    assert.deepStrictEqual(parseJsonc('{\n  "a": 1\n  "b": 2\n}'), { ok: false, message: 'a comma was expected at line 3, column 3' });
    assert.deepStrictEqual(parseJsonc('\ufeff{\r\n  "a": 1,\r\n  "b" 2\r\n}'), { ok: false, message: 'a colon was expected at line 3, column 7' });
    assert.deepStrictEqual(parseJsonc('{"a": 1} x'), { ok: false, message: 'unexpected "x" at line 1, column 10' });
  });

  it('reports a cut-off file at its end, with how many more problems follow', () => {
    assert.deepStrictEqual(parseJsonc('{ "a": { "b": 1 '), {
      ok: false,
      message: 'a closing "}" was expected at the end of the file (line 1, column 17); 1 more problem after it',
    });
    assert.deepStrictEqual(parseJsonc('{"a": 1} /* never closed'), { ok: false, message: 'a /* comment is never closed at line 1, column 10' });
  });

  it('rejects empty files, bare words and broken strings with a message instead of throwing or half-reading', () => {
    assert.deepStrictEqual(parseJsonc(''), { ok: false, message: 'the file is empty' });
    assert.deepStrictEqual(parseJsonc(' \n\t'), { ok: false, message: 'the file is empty' });
    const inputs = ['nul', '{"a": "line\nbreak"}', '{"a": "\\q"}', '{"a": 01}', '{a: 1}', '[1 2]', '\u0000', '{"a": "\\u12"}'];
    for (const input of inputs) {
      const result = parseJsonc(input);
      assert.strictEqual(result.ok, false, JSON.stringify(input));
      assert.ok(!result.ok && /at (line \d+, column \d+|the end of the file)/.test(result.message), `${JSON.stringify(input)}: ${JSON.stringify(result)}`);
    }
  });
});
