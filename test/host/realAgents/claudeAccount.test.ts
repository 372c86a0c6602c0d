// The account the real Claude Agent uses is known before the first prompt: Claude pushes its identity
// (`_auth/status_update`) after initialize, and the agent's view (the session header) carries it.
import * as assert from 'assert';
import { AnthropicApi } from '../../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { waitFor } from '../index';
import { REAL_TURN_TIMEOUT_MS, withRealAgent } from './realAgentTurns';

describe('real agent Claude Agent (real): the account before the first prompt', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS);
  const ctx = withRealAgent(claudeRecipe, () => [new AnthropicApi()], { permissions: 'auto' });

  it('shows who is signed in once the session opens, with no prompt sent', async () => {
    ctx.sessionId = await ctx.sb.backend.lifecycle.open(ctx.agent.name);
    const account = () => ctx.sb.backend.agents.views().find((a) => a.id === ctx.agent.name)?.account;
    await waitFor(() => !!account()?.label, 'the account in the agent view', 60_000);
    assert.strictEqual(ctx.agent.endpoint.mainRequests().length, 0, 'no prompt reached the model');
    assert.notStrictEqual(account()?.signedIn, false, `signed in with the scripted key: ${JSON.stringify(account())}`);
  });
});
