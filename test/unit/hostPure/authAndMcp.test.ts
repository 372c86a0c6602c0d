// Pure host helpers: sign-in method classification and MCP server settings.
import * as assert from 'assert';
import { parseMcpServers } from '../../../src/agents';
import { classifyAuthMethods } from '../../../src/host/auth/authMethods';

describe('classifyAuthMethods', () => {
  // As measured from the real agents (signed out): never an `authenticate` with a terminal method.
  it("reads the real agents' methods: Qwen's terminal type in _meta, Copilot's and OpenCode's terminal-auth hint", () => {
    const flows = classifyAuthMethods([
      { id: 'openai', name: 'Use OpenAI API key', _meta: { type: 'terminal', args: ['--auth-type=openai'] } },
      { id: 'copilot-login', name: 'Log in with GitHub', _meta: { 'terminal-auth': { command: '/x/copilot', args: ['login'], label: 'Copilot Login' } } },
      { id: 'opencode-login', name: 'Login with opencode', _meta: { 'terminal-auth': { command: 'opencode', args: ['auth', 'login'] } } },
    ]);
    assert.deepStrictEqual(flows, [
      { type: 'terminal', id: 'openai', name: 'Use OpenAI API key', description: undefined, args: ['--auth-type=openai'], env: {} },
      { type: 'terminal', id: 'copilot-login', name: 'Log in with GitHub', description: undefined, command: '/x/copilot', args: ['login'], env: {} },
      { type: 'terminal', id: 'opencode-login', name: 'Login with opencode', description: undefined, command: 'opencode', args: ['auth', 'login'], env: {} },
    ]);
  });

  it('keeps agent, terminal and env_var methods with their details', () => {
    const flows = classifyAuthMethods([
      { id: 'oauth', name: 'Log in with Google', description: 'Opens a browser' },
      { id: 'login', name: 'Log in in a terminal', type: 'terminal', args: ['--login'], env: { A: '1', B: 2 } },
      { id: 'key', name: 'API key', type: 'env_var', vars: [{ name: 'GEMINI_API_KEY', label: 'Key' }, 'OTHER', { name: 'REGION', secret: false, optional: true }] },
    ]);
    assert.deepStrictEqual(flows, [
      { type: 'agent', id: 'oauth', name: 'Log in with Google', description: 'Opens a browser' },
      { type: 'terminal', id: 'login', name: 'Log in in a terminal', description: undefined, args: ['--login'], env: { A: '1' } },
      {
        type: 'env_var',
        id: 'key',
        name: 'API key',
        description: undefined,
        link: undefined,
        vars: [
          { name: 'GEMINI_API_KEY', label: 'Key', secret: true, optional: false },
          { name: 'OTHER', secret: true, optional: false },
          { name: 'REGION', label: undefined, secret: false, optional: true },
        ],
      },
    ]);
  });

  it('reads the _meta terminal-auth hint (with its own command) and the older varName form', () => {
    const [hint, legacy] = classifyAuthMethods([
      { id: 'cli', name: 'Login', _meta: { 'terminal-auth': { command: 'claude', args: ['/login'], label: 'Claude login' } } },
      { id: 'env', name: 'Key', type: 'env_var', varName: 'ANTHROPIC_API_KEY' },
    ]);
    assert.deepStrictEqual(hint, { type: 'terminal', id: 'cli', name: 'Login', description: undefined, command: 'claude', args: ['/login'], env: {} });
    assert.ok(legacy.type === 'env_var' && legacy.vars[0].name === 'ANTHROPIC_API_KEY');
  });

  it('never dead-ends: unknown types become agent sign-in, junk entries are skipped', () => {
    const flows = classifyAuthMethods([null, 3, 'x', { name: 'no id' }, { id: 'new', name: 'Passkey', type: 'passkey' }, { id: 7 }]);
    assert.deepStrictEqual(
      flows.map((f) => [f.type, f.id, f.name]),
      [
        ['agent', 'new', 'Passkey'],
        ['agent', '7', '7'],
      ],
    );
  });
});

describe('parseMcpServers', () => {
  it('turns settings into stdio, http and sse servers and skips malformed ones with a message', () => {
    const problems: string[] = [];
    const servers = parseMcpServers(
      {
        files: { command: 'npx', args: ['-y', 'mcp-files', 3], env: { TOKEN: 'x', N: 1 } },
        web: { type: 'http', url: 'https://mcp.example/api', headers: { Authorization: 'Bearer y' } },
        events: { type: 'sse', url: 'https://mcp.example/sse' },
        broken: { type: 'http' },
        empty: {},
        nonsense: 5,
      },
      (m) => problems.push(m),
    );
    assert.deepStrictEqual(servers, [
      { name: 'files', command: 'npx', args: ['-y', 'mcp-files'], env: [{ name: 'TOKEN', value: 'x' }] },
      { type: 'http', name: 'web', url: 'https://mcp.example/api', headers: [{ name: 'Authorization', value: 'Bearer y' }] },
      { type: 'sse', name: 'events', url: 'https://mcp.example/sse', headers: [] },
    ]);
    assert.strictEqual(problems.length, 3);
    assert.match(problems[0], /"broken"/);
  });

  it('accepts nothing that is not an object', () => {
    for (const bad of [undefined, null, [], 'x', 1]) assert.deepStrictEqual(parseMcpServers(bad), []);
  });
});

describe('classifyAuthMethods with Gemini CLI methods', () => {
  it('marks a method whose _meta asks for an api-key, and keeps the others plain agent sign-in', () => {
    const flows = classifyAuthMethods([
      { id: 'oauth-personal', name: 'Log in with Google' },
      { id: 'gemini-api-key', name: 'Gemini API key', _meta: { 'api-key': { provider: 'google' } } },
    ]);
    assert.deepStrictEqual(flows[0], { type: 'agent', id: 'oauth-personal', name: 'Log in with Google', description: undefined });
    assert.deepStrictEqual(flows[1], { type: 'agent', id: 'gemini-api-key', name: 'Gemini API key', description: undefined, apiKey: { provider: 'google' } });
  });
});

describe("VS Code's own MCP server definitions", () => {
  it('are used in the same shapes, skipping servers that need ${input:...} values', async () => {
    const { parseVSCodeMcpServers, mergeMcpServers } = await import('../../../src/agents');
    const problems: string[] = [];
    const vscodeServers = parseVSCodeMcpServers(
      {
        github: { type: 'http', url: 'https://api.example/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
        fs: { type: 'stdio', command: 'mcp-fs', args: ['.'] },
        same: { command: 'from-vscode' },
      },
      (m) => problems.push(m),
    );
    assert.deepStrictEqual(vscodeServers.map((s) => s.name), ['fs', 'same']);
    assert.match(problems[0], /"github".*\$\{input:/);
    const merged = mergeMcpServers([{ name: 'same', command: 'mine', args: [], env: [] }], vscodeServers);
    assert.deepStrictEqual(merged.map((s) => [s.name, 'command' in s ? s.command : '']), [
      ['same', 'mine'],
      ['fs', 'mcp-fs'],
    ]);
  });
});
