// The real Claude Agent from npm, in plan mode, through the extension: because the client advertises the
// unstable `plan` capability, an approved ExitPlanMode becomes a markdown plan card (plan_update, planId
// "plan-mode"). Measured with claude-agent-acp 0.101.0 / Claude Code 2.1.318: ExitPlanMode is a deferred tool
// (the model loads it with ToolSearch "select:ExitPlanMode" first); its permission request "Approve Plan"
// (kind switch_mode) offers "Yes, manually approve edits" (allow_once, back to mode default), auto, bypass and
// "No, keep planning"; after approval the tool's result comes, then the plan_update with the plan the tool
// got. The plan_update comes only when the client advertises `plan` (acp-agent.js, toAcpNotifications).
import * as assert from 'assert';
import type { SwitchboardApi } from '../../../src/extension';
import { AnthropicApi, type NamedToolStep } from '../../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { api } from '../integration/helpers';
import { agentText, defineRealAgent, describeFailure, lastTurn, REAL_TURN_TIMEOUT_MS, runTurn, transcript, type HostRealAgent } from './realAgentTurns';

const PLAN = '# Greeting plan\n\n1. Change the greeting to say hello, world\n2. Run the tests';

describe('real agent Claude Agent (real): an approved plan through the extension', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS);
  let sb: SwitchboardApi;
  let agent: HostRealAgent;
  let sessionId: string | undefined;

  before(async () => {
    sb = await api();
    agent = await defineRealAgent(sb, claudeRecipe, [new AnthropicApi()], { permissions: 'ask' });
  });

  after(async () => {
    await agent?.dispose();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed' && agent) console.log(describeFailure(agent, sb, sessionId));
  });

  it('in plan mode, approving ExitPlanMode puts the markdown plan card in the transcript', async () => {
    sessionId = await sb.backend.newSession(agent.name);
    const id = sessionId;
    await sb.backend.setMode(id, 'plan');
    assert.strictEqual(transcript(sb, id).modes?.currentModeId, 'plan');

    const steps: NamedToolStep[] = [
      { text: 'Loading the plan tool.', namedTools: [{ name: 'ToolSearch', input: { query: 'select:ExitPlanMode', max_results: 1 } }] },
      { text: 'Here is the plan.', namedTools: [{ name: 'ExitPlanMode', input: { plan: PLAN } }] },
      { text: 'The plan is approved; starting.' },
    ];
    const result = await runTurn(sb, id, 'Plan how to make the greeting say hello, world.', steps, agent.endpoint, 'allow_once');
    assert.strictEqual(result.error, undefined, `the turn failed: ${result.error}`);
    assert.deepStrictEqual(result.permissionsAnswered, [{ title: 'Approve Plan', option: 'Yes, manually approve edits' }]);

    const items = lastTurn(transcript(sb, id));
    const plans = items.filter((i) => i.kind === 'plan');
    assert.deepStrictEqual(plans.map(({ id: _id, ...plan }) => plan), [{ kind: 'plan', planId: 'plan-mode', entries: [], markdown: PLAN }], 'one markdown plan card');
    const exit = items.findIndex((i) => i.kind === 'tool_call' && i.toolName === 'ExitPlanMode');
    assert.ok(exit >= 0 && items.indexOf(plans[0]) > exit, 'the plan card follows the approved tool call');
    assert.match(agentText(items), /The plan is approved; starting\./);
    assert.strictEqual(transcript(sb, id).modes?.currentModeId, 'default', 'approving left plan mode');
    assert.strictEqual(agent.endpoint.remaining, 0, agent.endpoint.describeLog());
  });
});
