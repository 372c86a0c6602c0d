// Unstable providers/list, providers/set and providers/disable against the scripted fake agent: every message
// the client sends is validated against schema.unstable.json; odd answers are read as the schema allows.
import * as assert from 'node:assert/strict';
import { AcpRequestError, CapabilityNotSupportedError, ErrorCode, InvalidResponseError } from '../../../src/acp';
import { ListProvidersResultSchema } from '../../../src/acp/schema/providers';
import { REDACTED, redactProtocolMessage } from '../../../src/agents';
import { CLIENT_INFO } from './helpers';
import { schemaCheckedFakeAgents } from './schemaValidator';

describe('providers/* against the fake agent (schema.unstable.json)', function () {
  this.timeout(15000);
  const start = schemaCheckedFakeAgents('schema.unstable.json');

  it('reads the capability; an agent without it gets no providers/* request', async () => {
    const h = start(['--providers']);
    assert.equal((await h.conn.initialize({ clientInfo: CLIENT_INFO })).agentCapabilities.providers, true);
    const plain = start([]);
    assert.equal((await plain.conn.initialize({ clientInfo: CLIENT_INFO })).agentCapabilities.providers, false);
    await assert.rejects(plain.conn.listProviders(), CapabilityNotSupportedError);
    await assert.rejects(plain.conn.setProvider({ providerId: 'main', apiType: 'anthropic', baseUrl: 'https://x.example' }), CapabilityNotSupportedError);
    await assert.rejects(plain.conn.disableProvider('openai'), CapabilityNotSupportedError);
    assert.ok(!plain.sent.some((e) => e.method?.startsWith('providers/')), 'nothing was sent');
  });

  it('lists, sets (with headers), lists the new baseUrl, disables, and maps refusals to -32602', async () => {
    const h = start(['--providers']);
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const before = await h.conn.listProviders();
    assert.deepEqual(before, {
      skipped: 0,
      providers: [
        { providerId: 'main', supported: ['anthropic', 'bedrock', '_gateway'], required: true, current: { apiType: 'anthropic', baseUrl: 'https://api.anthropic.example' } },
        { providerId: 'openai', supported: ['openai', 'azure'], required: false, current: null },
      ],
    });
    await h.conn.setProvider({ providerId: 'openai', apiType: 'azure', baseUrl: 'https://gateway.example/v1', headers: { 'api-key': 'k-123' } });
    await h.conn.setProvider({ providerId: 'main', apiType: '_gateway', baseUrl: 'http://127.0.0.1:9/x' });
    const after = await h.conn.listProviders();
    assert.deepEqual(after.providers.map((p) => p.current), [{ apiType: '_gateway', baseUrl: 'http://127.0.0.1:9/x' }, { apiType: 'azure', baseUrl: 'https://gateway.example/v1' }]);
    await h.conn.disableProvider('openai');
    assert.equal((await h.conn.listProviders()).providers[1].current, null);
    const invalidParams = (e: unknown) => e instanceof AcpRequestError && e.code === ErrorCode.InvalidParams;
    await assert.rejects(h.conn.setProvider({ providerId: 'main', apiType: 'anthropic', baseUrl: 'https://reject.example/' }), invalidParams);
    await assert.rejects(h.conn.setProvider({ providerId: 'nope', apiType: 'anthropic', baseUrl: 'https://x.example' }), invalidParams);
    await assert.rejects(h.conn.disableProvider('main'), invalidParams);
  });

  it('a providers/list answer whose providers is not an array is a clear InvalidResponseError', async () => {
    const h = start(['--providers=garbage']);
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    await assert.rejects(h.conn.listProviders(), (e: unknown) => e instanceof InvalidResponseError && /invalid result for providers\/list: providers /.test(e.message));
  });
});

describe('ListProvidersResultSchema: odd answers', () => {
  const parse = (providers: unknown) => ListProvidersResultSchema.parse({ providers });

  it('missing and null `current` both mean disabled', () => {
    const r = parse([
      { providerId: 'a', supported: ['openai'], required: false },
      { providerId: 'b', supported: ['openai'], required: false, current: null },
    ]);
    assert.deepEqual(r.providers.map((p) => p.current), [null, null]);
  });

  it('keeps unknown apiTypes (custom protocols), drops supported entries that are not strings', () => {
    const r = parse([{ providerId: 'a', supported: ['anthropic', '_mine', 'future-proto', 7, null], required: false, current: { apiType: 'future-proto', baseUrl: 'https://x' } }]);
    assert.deepEqual(r.providers[0].supported, ['anthropic', '_mine', 'future-proto']);
    assert.equal(r.providers[0].current?.apiType, 'future-proto');
  });

  it('a `supported` that is not an array becomes []; a `required` that is not a boolean counts as required', () => {
    const r = parse([{ providerId: 'a', supported: 'anthropic', required: 'no' }]);
    assert.deepEqual(r.providers[0], { providerId: 'a', supported: [], required: true, current: null });
  });

  it('skips (and counts) entries without a providerId or with a malformed current; keeps the rest', () => {
    const r = parse([{ supported: [], required: false }, { providerId: 'b', supported: [], required: false, current: { apiType: 'openai' } }, 'x', { providerId: 'c', supported: [], required: false }]);
    assert.deepEqual(r.providers.map((p) => p.providerId), ['c']);
    assert.equal(r.skipped, 3);
  });

  it('refuses a non-array providers or a missing one', () => {
    assert.equal(ListProvidersResultSchema.safeParse({ providers: { main: {} } }).success, false);
    assert.equal(ListProvidersResultSchema.safeParse({}).success, false);
    assert.equal(ListProvidersResultSchema.safeParse(null).success, false);
  });

  it('the protocol log never shows providers/set header values', () => {
    const logged = JSON.stringify(
      redactProtocolMessage({ jsonrpc: '2.0', id: 4, method: 'providers/set', params: { providerId: 'main', apiType: 'anthropic', baseUrl: 'https://x', headers: { 'x-api-key': 'sk-live-123', Authorization: 'Bearer abc.def.ghi.jkl' } } }),
    );
    assert.ok(!logged.includes('sk-live-123') && !logged.includes('abc.def'), logged);
    assert.ok(logged.includes(`"x-api-key":"${REDACTED}"`), logged);
  });
});
