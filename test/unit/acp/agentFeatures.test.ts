import * as assert from 'assert';
import { composerCapabilities, listedSessionActions } from '../../../src/acp/connection/agentFeatures';
import { InitializeResultSchema } from '../../../src/acp/schema/agentResponses';

const capsOf = (agentCapabilities: unknown) => InitializeResultSchema.parse({ protocolVersion: 1, agentCapabilities }).agentCapabilities;

describe('acp: agent features', () => {
  it('turns an initialize result into what the composer and the history list may offer', () => {
    const caps = capsOf({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      sessionCapabilities: { list: {}, resume: {} },
    });
    assert.deepStrictEqual(composerCapabilities(caps), { image: true, audio: false, embeddedContext: true, loadSession: true });
    assert.deepStrictEqual(listedSessionActions(caps), { canLoad: true, canResume: true, canDelete: false });
  });

  it('offers nothing extra for an agent that declared nothing, declared junk, or is not initialized yet', () => {
    const none = { image: false, audio: false, embeddedContext: false, loadSession: false };
    const noActions = { canLoad: false, canResume: false, canDelete: false };
    for (const caps of [capsOf(undefined), capsOf('junk'), capsOf({ loadSession: 'yes', promptCapabilities: { image: 1 }, sessionCapabilities: { delete: true } }), undefined]) {
      assert.deepStrictEqual(composerCapabilities(caps), none);
      assert.deepStrictEqual(listedSessionActions(caps), noActions);
    }
  });
});
