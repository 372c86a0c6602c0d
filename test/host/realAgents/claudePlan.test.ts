// The real Claude Agent from npm, in plan mode, through the extension: because the client advertises the
// unstable `plan` capability, an approved ExitPlanMode becomes a markdown plan card (plan_update, planId
// "plan-mode"). Measured with claude-agent-acp 0.101.0 / Claude Code 2.1.318: ExitPlanMode is a deferred tool
// (the model loads it with ToolSearch "select:ExitPlanMode" first); its permission request "Approve Plan"
// (kind switch_mode) offers "Yes, manually approve edits" (allow_once, back to mode default), auto, bypass and
// "No, keep planning"; after approval the tool's result comes, then the plan_update with the plan the tool
// got. The plan_update comes only when the client advertises `plan` (acp-agent.js, toAcpNotifications).
import * as assert from 'assert';
import { AnthropicApi, type NamedToolStep } from '../../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { agentText, lastTurn, REAL_TURN_TIMEOUT_MS, runTurn, transcript, withRealAgent } from './realAgentTurns';

const PLAN = '# Greeting plan\n\n1. Change the greeting to say hello, world\n2. Run the tests';

describe('real agent Claude Agent (real): an approved plan through the extension', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS);
  const ctx = withRealAgent(claudeRecipe, () => [new AnthropicApi()], { permissions: 'ask' });

  it('in plan mode, approving ExitPlanMode puts the markdown plan card in the transcript', async () => {
    ctx.sessionId = await ctx.sb.backend.lifecycle.open(ctx.agent.name);
    const id = ctx.sessionId;
    await ctx.sb.backend.sessions.require(id).setMode('plan');
    assert.strictEqual(transcript(ctx.sb, id).modes?.currentModeId, 'plan');

    const steps: NamedToolStep[] = [
      { text: 'Loading the plan tool.', namedTools: [{ name: 'ToolSearch', input: { query: 'select:ExitPlanMode', max_results: 1 } }] },
      { text: 'Here is the plan.', namedTools: [{ name: 'ExitPlanMode', input: { plan: PLAN } }] },
      { text: 'The plan is approved; starting.' },
    ];
    const result = await runTurn(ctx.sb, id, 'Plan how to make the greeting say hello, world.', steps, ctx.agent.endpoint, 'allow_once');
    assert.strictEqual(result.error, undefined, `the turn failed: ${result.error}`);
    assert.deepStrictEqual(result.permissionsAnswered, [{ title: 'Approve Plan', option: 'Yes, manually approve edits' }]);

    const items = lastTurn(transcript(ctx.sb, id));
    const plans = items.filter((i) => i.kind === 'plan');
    assert.deepStrictEqual(plans.map(({ id: _id, ...plan }) => plan), [{ kind: 'plan', planId: 'plan-mode', entries: [], markdown: PLAN }], 'one markdown plan card');
    const exit = items.findIndex((i) => i.kind === 'tool_call' && i.toolName === 'ExitPlanMode');
    assert.ok(exit >= 0 && items.indexOf(plans[0]) > exit, 'the plan card follows the approved tool call');
    assert.match(agentText(items), /The plan is approved; starting\./);
    assert.strictEqual(transcript(ctx.sb, id).modes?.currentModeId, 'default', 'approving left plan mode');
    assert.strictEqual(ctx.agent.endpoint.remaining, 0, ctx.agent.endpoint.describeLog());
  });
});
