// `switchboard.agents` entries with `url` (remote agents) instead of `command`.
import * as assert from 'assert';
import { parseAgentSettings } from '../../../src/agents/agentSettings';
import { ReconnectBackoff } from '../../../src/agents/reconnectBackoff';

const prefix = (name: string) => `Agent "${name}" in switchboard.agents was ignored: `;

describe('agentSettings: remote agents (url + headers)', () => {
  it('accepts http, https, ws and wss URLs with headers; command entries are unchanged', () => {
    const result = parseAgentSettings({
      Cloud: { url: 'https://agents.example.com/acp', headers: { Authorization: 'Bearer ${secret}', 'X-Team': 'core' }, defaultMode: 'code' },
      Box: { url: ' ws://127.0.0.1:9000/acp ' },
      Farm: { url: 'wss://farm.example.com/acp' },
      Plain: { url: 'http://localhost:8080/acp' },
      Local: { command: 'agent', args: ['--acp'] },
    });
    assert.deepStrictEqual(result.problems, []);
    assert.deepStrictEqual(result.agents[0], {
      name: 'Cloud',
      command: '',
      args: [],
      env: {},
      remote: { url: 'https://agents.example.com/acp', headers: { Authorization: 'Bearer ${secret}', 'X-Team': 'core' } },
      defaultMode: 'code',
    });
    assert.deepStrictEqual(result.agents[1].remote, { url: 'ws://127.0.0.1:9000/acp', headers: {} });
    assert.deepStrictEqual(result.agents[4], { name: 'Local', command: 'agent', args: ['--acp'], env: {} });
  });

  it('reports one clear problem per bad remote entry', () => {
    const result = parseAgentSettings({
      Both: { command: 'agent', url: 'https://x/acp' },
      Scheme: { url: 'ftp://x/acp' },
      NotUrl: { url: 'agents.example.com' },
      Password: { url: 'https://me:hunter2@x/acp' },
      NumberUrl: { url: 7 },
      LocalKeys: { url: 'https://x/acp', args: ['--acp'], env: { A: '1' } },
      HeadersOnCommand: { command: 'agent', headers: { A: 'b' } },
      BadHeaderName: { url: 'https://x/acp', headers: { 'Bad Name': 'x' } },
      BadHeaderValue: { url: 'https://x/acp', headers: { A: 3 } },
      HeaderInjection: { url: 'https://x/acp', headers: { A: 'x\r\nHost: evil' } },
      Typo: { URL: 'https://x/acp' },
    });
    assert.deepStrictEqual(result.agents, []);
    const byEntry = Object.fromEntries(result.problems.map((p) => [p.entry, p.message]));
    assert.deepStrictEqual(byEntry, {
      Both: `${prefix('Both')}give either "command" (an agent Switchboard starts) or "url" (a remote agent it connects to), not both.`,
      Scheme: `${prefix('Scheme')}"url" must start with http://, https://, ws:// or wss://, not ftp://.`,
      NotUrl: `${prefix('NotUrl')}"url" "agents.example.com" is not a valid URL (e.g. "wss://agents.example.com/acp").`,
      Password: `${prefix('Password')}"url" must not contain a user name or password (settings are not secret): put credentials in "headers" as "\${secret}".`,
      NumberUrl: `${prefix('NumberUrl')}"url" must be a string, not the number 7.`,
      LocalKeys: `${prefix('LocalKeys')}"args" and "env" apply to an agent Switchboard starts; a remote agent ("url") takes "headers".`,
      HeadersOnCommand: `${prefix('HeadersOnCommand')}"headers" apply to a remote agent ("url") only.`,
      BadHeaderName: `${prefix('BadHeaderName')}"Bad Name" is not a valid header name (at headers.Bad Name).`,
      BadHeaderValue: `${prefix('BadHeaderValue')}each value in "headers" must be a string, not the number 3 (at headers.A).`,
      HeaderInjection: `${prefix('HeaderInjection')}a header value must not contain line breaks (at headers.A).`,
      Typo: `${prefix('Typo')}"command" is missing (the executable to start, e.g. "npx" or "/usr/local/bin/my-agent"); unknown key "URL" (did you mean "url"?); allowed keys are command, args, env, url, headers, defaultMode, defaultModel, defaultConfigOptions.`,
    });
  });
});

describe('ReconnectBackoff', () => {
  it('doubles the delay up to the cap, gives up after maxAttempts, and starts afresh after reset', () => {
    const backoff = new ReconnectBackoff({ initialDelayMs: 1000, maxDelayMs: 5000, maxAttempts: 5 });
    const delays = [];
    for (let next = backoff.next(); next; next = backoff.next()) delays.push([next.attempt, next.delayMs]);
    assert.deepStrictEqual(delays, [[1, 1000], [2, 2000], [3, 4000], [4, 5000], [5, 5000]]);
    assert.strictEqual(backoff.next(), undefined);
    backoff.reset();
    assert.deepStrictEqual(backoff.next(), { attempt: 1, delayMs: 1000 });
  });

  it('rejects nonsense options', () => {
    assert.throws(() => new ReconnectBackoff({ maxAttempts: 0 }), RangeError);
    assert.throws(() => new ReconnectBackoff({ initialDelayMs: 10, maxDelayMs: 5 }), RangeError);
  });
});
