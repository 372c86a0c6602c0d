// The checks a Model provider choice passes before anything is sent to the agent, and how kept choices are read.
import * as assert from 'assert';
import { checkProviderUrl, describeBaseUrl, parseSavedChoices, ProviderChoiceError, resolveHeaders } from '../../../src/host/agents/configuration/providerChoice';

const refused = (pattern: RegExp) => (e: unknown) => e instanceof ProviderChoiceError && pattern.test(e.message);

describe('checkProviderUrl', () => {
  it('takes http(s) URLs (trimmed); headers over https anywhere and over http to loopback only', () => {
    assert.strictEqual(checkProviderUrl('  https://gateway.example/v1 ', ['x-api-key']), 'https://gateway.example/v1');
    assert.strictEqual(checkProviderUrl('http://127.0.0.1:8080', ['Authorization']), 'http://127.0.0.1:8080');
    assert.strictEqual(checkProviderUrl('http://localhost:8080', ['Authorization']), 'http://localhost:8080');
    assert.strictEqual(checkProviderUrl('http://[::1]:8080/x', ['Authorization']), 'http://[::1]:8080/x');
    // No headers: nothing secret crosses the network.
    assert.strictEqual(checkProviderUrl('http://gateway.example', []), 'http://gateway.example');
  });

  it('refuses other schemes, relative and malformed URLs, and credentials in the URL', () => {
    assert.throws(() => checkProviderUrl('ftp://gateway.example', []), refused(/must be http:\/\/ or https:\/\/, not ftp:/));
    assert.throws(() => checkProviderUrl('ws://127.0.0.1:1', []), refused(/not ws:/));
    assert.throws(() => checkProviderUrl('javascript:alert(1)', []), refused(/not javascript:/));
    assert.throws(() => checkProviderUrl('gateway.example/v1', []), refused(/is not a valid URL/));
    assert.throws(() => checkProviderUrl('', []), refused(/is not a valid URL/));
    assert.throws(() => checkProviderUrl('https://user:pw@gateway.example', []), refused(/user name or password/));
  });

  it('refuses headers over plain http to another machine, naming them, with the way out', () => {
    assert.throws(
      () => checkProviderUrl('http://gateway.example:8080', ['x-api-key', 'X-Route']),
      refused(/Refused to send credentials \("x-api-key", "X-Route"\) over plain http to gateway\.example:8080.*Use https:\/\//),
    );
    assert.throws(() => checkProviderUrl('http://10.0.0.5', ['a']), refused(/plain http to 10\.0\.0\.5/));
  });
});

describe('resolveHeaders', () => {
  it('uses entered values, keeps stored ones for headers entered without a value, skips empty rows', () => {
    assert.deepStrictEqual(
      resolveHeaders([{ name: ' x-api-key ' }, { name: 'X-Route', value: 'eu' }, { name: '', value: '' }], { 'X-API-Key': 'kept-secret', other: 'dropped' }),
      { 'x-api-key': 'kept-secret', 'X-Route': 'eu' },
    );
    assert.deepStrictEqual(resolveHeaders([], { a: 'b' }), {}, 'a header left out is dropped');
  });

  it('refuses bad names, duplicates, missing values and line breaks', () => {
    assert.throws(() => resolveHeaders([{ name: 'bad name', value: 'x' }], {}), refused(/"bad name" is not a valid header name/));
    assert.throws(() => resolveHeaders([{ name: '', value: 'x' }], {}), refused(/is not a valid header name/));
    assert.throws(() => resolveHeaders([{ name: 'A', value: '1' }, { name: 'a', value: '2' }], {}), refused(/"a" is given twice/));
    assert.throws(() => resolveHeaders([{ name: 'x-api-key' }], {}), refused(/Enter a value for the header "x-api-key"/));
    assert.throws(() => resolveHeaders([{ name: 'x', value: 'a\r\nInjected: 1' }], {}), refused(/line break/));
  });
});

describe('parseSavedChoices', () => {
  it('reads set and disabled choices and drops anything else', () => {
    const json = JSON.stringify({
      main: { kind: 'set', apiType: 'anthropic', baseUrl: 'http://127.0.0.1:1', headers: { a: 'b' } },
      openai: { kind: 'disabled' },
      broken: { kind: 'set', apiType: 'anthropic' },
      odd: 'x',
    });
    assert.deepStrictEqual(parseSavedChoices(json), {
      main: { kind: 'set', apiType: 'anthropic', baseUrl: 'http://127.0.0.1:1', headers: { a: 'b' } },
      openai: { kind: 'disabled' },
    });
    assert.deepStrictEqual(parseSavedChoices(undefined), {});
    assert.deepStrictEqual(parseSavedChoices('{not json'), {});
    assert.deepStrictEqual(parseSavedChoices('[1]'), {});
  });

  it('describeBaseUrl leaves out the query and fragment (they may carry a token)', () => {
    assert.strictEqual(describeBaseUrl('https://g.example/v1?key=secret#t'), 'https://g.example/v1');
    assert.strictEqual(describeBaseUrl('http://127.0.0.1:9/'), 'http://127.0.0.1:9');
  });
});
