import * as assert from 'assert';
import { agentSupports, composerCapabilities, listedSessionActions, OPTIONAL_METHODS, type OptionalMethod } from '../../../../src/acp/connection/agentFeatures';
import { InitializeResultSchema } from '../../../../src/acp/schema/agentResponses';

const capsOf = (agentCapabilities: unknown, _meta?: unknown) => InitializeResultSchema.parse({ protocolVersion: 1, agentCapabilities, _meta }).agentCapabilities;

describe('acp: agent features', () => {
  it('turns an initialize result into what the composer and the history list may offer', () => {
    const caps = capsOf({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      sessionCapabilities: { list: {}, resume: {}, fork: {} },
    });
    assert.deepStrictEqual(composerCapabilities(caps), { image: true, audio: false, embeddedContext: true, loadSession: true, fork: true, title: false, steering: false });
    assert.deepStrictEqual(listedSessionActions(caps), { canLoad: true, canResume: true, canDelete: false });
  });

  it('offers nothing extra for an agent that declared nothing, declared junk, or is not initialized yet', () => {
    const none = { image: false, audio: false, embeddedContext: false, loadSession: false, fork: false, title: false, steering: false };
    const noActions = { canLoad: false, canResume: false, canDelete: false };
    for (const caps of [capsOf(undefined), capsOf('junk'), capsOf({ loadSession: 'yes', promptCapabilities: { image: 1 }, sessionCapabilities: { delete: true } }), undefined]) {
      assert.deepStrictEqual(composerCapabilities(caps), none);
      assert.deepStrictEqual(listedSessionActions(caps), noActions);
    }
  });

  it('one table says which capability each optional method needs: announced, it is supported; not announced or not initialized, it is not', () => {
    const all = capsOf({
      loadSession: true,
      auth: { logout: {}, status: {} },
      providers: {},
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, fork: {}, title: {} },
    }, { steering: { supported: true } });
    for (const method of Object.keys(OPTIONAL_METHODS) as OptionalMethod[]) {
      assert.equal(agentSupports(all, method), true, method);
      assert.equal(agentSupports(capsOf({}), method), false, method);
      assert.equal(agentSupports(undefined, method), false, method);
    }
    const onlyList = capsOf({ sessionCapabilities: { list: {} } });
    assert.deepStrictEqual(
      (Object.keys(OPTIONAL_METHODS) as OptionalMethod[]).filter((m) => agentSupports(onlyList, m)),
      ['session/list'],
    );
  });

  it('steering is read from the initialize result\'s own _meta (Claude Agent\'s shape): only `supported: true` counts', () => {
    assert.strictEqual(capsOf({}, { steering: { supported: true } }).steering, true);
    assert.strictEqual(composerCapabilities(capsOf({}, { steering: { supported: true } })).steering, true);
    for (const meta of [undefined, 'junk', { steering: true }, { steering: { supported: 'yes' } }, { steering: { supported: false } }, { other: {} }]) {
      assert.strictEqual(capsOf({}, meta).steering, false, JSON.stringify(meta));
      assert.strictEqual(agentSupports(capsOf({}, meta), '_session/steering'), false);
    }
    // Announced inside agentCapabilities instead: not what any agent sends, not read.
    assert.strictEqual(capsOf({ _meta: { steering: { supported: true } } }).steering, false);
  });
});
