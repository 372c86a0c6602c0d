// Standing instructions with the real Claude Agent from npm (claude-agent-acp advertises
// sessionCapabilities.systemPrompt): switchboard.instructions reaches the model as part of the system
// prompt of the session's requests (the scripted endpoint's log), and the header says they apply.
import * as assert from 'assert';
import { AnthropicApi } from '../../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { setSettings } from '../index';
import { REAL_TURN_TIMEOUT_MS, runTurn, view, withRealAgent } from './realAgentTurns';

const MARKER = 'Sign every answer with the word marigold-7.';

/** The text of an Anthropic Messages request's `system` (a string or text blocks). */
function systemText(body: unknown): string {
  const system = (body as { system?: unknown }).system;
  if (typeof system === 'string') return system;
  return Array.isArray(system) ? system.map((b: { text?: string }) => b.text ?? '').join('\n') : '';
}

describe('real agent Claude Agent (real): standing instructions', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS);
  const ctx = withRealAgent(claudeRecipe, () => [new AnthropicApi()], { permissions: 'auto' });
  let restore: (() => Promise<void>) | undefined;
  before(async () => {
    restore = await setSettings({ 'switchboard.instructions': MARKER });
  });
  after(async () => {
    await restore?.();
  });

  it('reaches the model as the system prompt, and the header says they apply', async () => {
    const id = (ctx.sessionId = await ctx.sb.backend.lifecycle.open(ctx.agent.name));
    assert.deepStrictEqual(view(ctx.sb, id)?.instructions, { sent: true, supported: true, sources: ['user settings'], problems: [] });
    const result = await runTurn(ctx.sb, id, 'Say hello.', [{ text: 'Hello. marigold-7' }], ctx.agent.endpoint);
    assert.strictEqual(result.error, undefined, `the turn failed: ${result.error}`);
    const requests = ctx.agent.endpoint.mainRequests();
    assert.ok(requests.length > 0, 'the turn reached the model');
    for (const r of requests) assert.ok(systemText(r.body).includes(MARKER), `the system prompt of a request: ${systemText(r.body).slice(0, 2000)}`);
  });
});
