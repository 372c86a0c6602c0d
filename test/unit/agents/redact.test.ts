import * as assert from 'assert';
import { REDACTED, redactProtocolMessage, redactSecrets } from '../../../src/agents/redact';

describe('redact', () => {
  it('hides MCP server env values and header values in session/new, keeping the names', () => {
    const message = {
      jsonrpc: '2.0',
      id: 0,
      method: 'session/new',
      params: {
        cwd: '/work',
        mcpServers: [
          { name: 'github', command: 'gh-mcp', args: ['--stdio'], env: [{ name: 'GITHUB_TOKEN', value: 'ghp_realtoken' }, { name: 'LOG', value: 'debug' }] },
          { type: 'http', name: 'api', url: 'https://mcp.example.com', headers: [{ name: 'Authorization', value: 'Bearer abc.def.ghi' }] },
        ],
      },
    };
    const original = JSON.parse(JSON.stringify(message));
    assert.deepStrictEqual(redactProtocolMessage(message), {
      jsonrpc: '2.0',
      id: 0,
      method: 'session/new',
      params: {
        cwd: '/work',
        mcpServers: [
          { name: 'github', command: 'gh-mcp', args: ['--stdio'], env: [{ name: 'GITHUB_TOKEN', value: REDACTED }, { name: 'LOG', value: REDACTED }] },
          { type: 'http', name: 'api', url: 'https://mcp.example.com', headers: [{ name: 'Authorization', value: REDACTED }] },
        ],
      },
    });
    assert.deepStrictEqual(message, original, 'the input must not be modified');
  });

  it('hides object-shaped env (terminal/create, settings) and headers', () => {
    assert.deepStrictEqual(redactSecrets({ env: { OPENAI_API_KEY: 'sk-x', PATH: '/bin' }, headers: { 'X-Api-Key': 'k' } }), {
      env: { OPENAI_API_KEY: REDACTED, PATH: REDACTED },
      headers: { 'X-Api-Key': REDACTED },
    });
  });

  it('hides authenticate params except methodId', () => {
    assert.deepStrictEqual(
      redactProtocolMessage({ jsonrpc: '2.0', id: 3, method: 'authenticate', params: { methodId: 'gemini-api-key', apiKey: 'AIza-secret', value: 'whatever', _meta: { x: 1 } } }),
      { jsonrpc: '2.0', id: 3, method: 'authenticate', params: { methodId: 'gemini-api-key', apiKey: REDACTED, value: REDACTED, _meta: REDACTED } },
    );
  });

  it('hides secret-looking keys anywhere, but keeps numbers such as token counts', () => {
    assert.deepStrictEqual(
      redactSecrets({
        _meta: { apiKey: 'abc', refresh_token: 'r', clientSecret: 's', password: 'p', Authorization: 'Basic xyz', credentials: { user: 'me', pass: 'pw' } },
        usage: { inputTokens: 1200, outputTokens: 80, totalTokens: 1280 },
        sessionId: 'sess-1',
      }),
      {
        _meta: { apiKey: REDACTED, refresh_token: REDACTED, clientSecret: REDACTED, password: REDACTED, Authorization: REDACTED, credentials: { user: REDACTED, pass: REDACTED } },
        usage: { inputTokens: 1200, outputTokens: 80, totalTokens: 1280 },
        sessionId: 'sess-1',
      },
    );
  });

  it('hides bearer tokens and well-known key formats inside ordinary strings', () => {
    assert.deepStrictEqual(redactSecrets({ text: 'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload" with sk-abcdefghijklmnopqrstuvwx' }), {
      text: `curl -H "Authorization: Bearer ${REDACTED}" with ${REDACTED}`,
    });
    assert.strictEqual(redactSecrets('nothing secret here'), 'nothing secret here');
  });

  it('leaves ordinary protocol traffic unchanged', () => {
    const update = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } } },
    };
    assert.deepStrictEqual(redactProtocolMessage(update), update);
    assert.deepStrictEqual(redactSecrets([1, null, true, 'x']), [1, null, true, 'x']);
  });

  it('a plain string (a log line that is not JSON) gets the inline patterns', () => {
    assert.strictEqual(redactSecrets('debug: using Bearer abcdefghijkl'), `debug: using Bearer ${REDACTED}`);
  });
});
