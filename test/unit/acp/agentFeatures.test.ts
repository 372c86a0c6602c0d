import * as assert from 'assert';
import { agentSupports, composerCapabilities, listedSessionActions, OPTIONAL_METHODS, type OptionalMethod } from '../../../src/acp/connection/agentFeatures';
import { InitializeResultSchema } from '../../../src/acp/schema/agentResponses';

const capsOf = (agentCapabilities: unknown) => InitializeResultSchema.parse({ protocolVersion: 1, agentCapabilities }).agentCapabilities;

describe('acp: agent features', () => {
  it('turns an initialize result into what the composer and the history list may offer', () => {
    const caps = capsOf({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      sessionCapabilities: { list: {}, resume: {}, fork: {} },
    });
    assert.deepStrictEqual(composerCapabilities(caps), { image: true, audio: false, embeddedContext: true, loadSession: true, fork: true, title: false });
    assert.deepStrictEqual(listedSessionActions(caps), { canLoad: true, canResume: true, canDelete: false });
  });

  it('offers nothing extra for an agent that declared nothing, declared junk, or is not initialized yet', () => {
    const none = { image: false, audio: false, embeddedContext: false, loadSession: false, fork: false, title: false };
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
    });
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
});
