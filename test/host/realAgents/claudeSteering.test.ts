// Steering with the real Claude Agent from npm (claude-agent-acp advertises `_meta.steering.supported`) through
// the extension: a message steered into the running turn, while the model's first answer is still pending,
// reaches the model in a later request of the same turn, and the chat shows it where it went, marked steered.
import * as assert from 'assert';
import { AnthropicApi } from '../../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { waitFor } from '../index';
import { prompt, textOf } from '../integration/helpers';
import { REAL_TURN_TIMEOUT_MS, transcript, view, withRealAgent } from './realAgentTurns';

const PROMPT = 'Write a short poem about the sea.';
const STEER = 'Change of plan: make it about mountains instead.';
const ANSWER = 'Here is a poem about mountains, as you asked.';

describe('real agent Claude Agent (real): steering through the extension', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS * 2);
  const ctx = withRealAgent(claudeRecipe, () => [new AnthropicApi()], { permissions: 'auto' });

  it('Steer while the model works: the steered text reaches the model in the same turn, shown as steered where it went', async () => {
    const id = await ctx.sb.backend.lifecycle.open(ctx.agent.name);
    ctx.sessionId = id;
    assert.strictEqual(view(ctx.sb, id)?.capabilities.steering, true, 'Claude advertises steering, so the composer offers Steer');
    const endpoint = ctx.agent.endpoint;
    // The model's first answer never comes (until Claude gives up on it for the steer); the next one answers.
    endpoint.script([{ hang: true }, { text: ANSWER }]);
    const first = endpoint.mainRequests().length;
    ctx.sb.chat.controller.handleMessage({ type: 'prompt', sessionId: id, prompt: prompt(PROMPT) });
    await endpoint.waitForMainRequests(first + 1, REAL_TURN_TIMEOUT_MS);
    assert.strictEqual(view(ctx.sb, id)?.turn, 'running');

    ctx.sb.chat.controller.handleMessage({ type: 'steer', sessionId: id, prompt: prompt(STEER) });
    await waitFor(() => view(ctx.sb, id)?.turn === 'idle' && ctx.sb.chat.controller.queued(id).length === 0, 'the turn to end', REAL_TURN_TIMEOUT_MS);
    assert.strictEqual(view(ctx.sb, id)?.error, undefined, `no error: ${view(ctx.sb, id)?.error?.message}`);

    // The model saw the steer in a later request of the turn, after the prompt.
    const later = endpoint.mainRequests().slice(first + 1);
    const withSteer = later.find((r) => JSON.stringify((r.body as { messages?: unknown }).messages ?? []).includes(STEER));
    assert.ok(withSteer, `a later main request carries the steered text:\n${endpoint.describeLog()}`);
    const sent = JSON.stringify((withSteer.body as { messages?: unknown }).messages);
    assert.ok(sent.indexOf(PROMPT) >= 0 && sent.indexOf(PROMPT) < sent.indexOf(STEER), 'after the prompt, in the same conversation');

    // One turn: the prompt, the steered message marked where it went, the answer, one end.
    const items = transcript(ctx.sb, id).items;
    const users = items.filter((i) => i.kind === 'user_message');
    assert.deepStrictEqual(users.map((u) => [textOf(u), u.kind === 'user_message' && u.steered === true]), [[PROMPT, false], [STEER, true]]);
    const steeredAt = items.findIndex((i) => i.kind === 'user_message' && i.steered);
    const answerAt = items.findIndex((i) => i.kind === 'agent_message' && textOf(i).includes(ANSWER));
    const ends = items.map((i, n) => (i.kind === 'turn_end' ? n : -1)).filter((n) => n >= 0);
    assert.ok(answerAt > steeredAt, `the answer follows the steered message: ${JSON.stringify(items.map((i) => i.kind))}`);
    assert.deepStrictEqual(ends.length, 1, 'one turn');
    assert.ok(ends[0] > answerAt, 'which ends after the answer');
  });
});
