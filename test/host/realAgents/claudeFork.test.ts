// Fork with the real Claude Agent from npm (claude-agent-acp advertises session/fork) through the extension:
// "Fork session" after a turn opens a new tab with that turn and the fork's notice, and the next prompt in
// the fork reaches the model with the earlier conversation (Claude's fork kept it) while the original tab
// stays as it was; "Fork from here" on the first message of a two-turn session shows only the first turn.
import * as assert from 'assert';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { AnthropicApi } from '../../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { textOf } from '../integration/helpers';
import { agentText, lastTurn, REAL_TURN_TIMEOUT_MS, runTurn, transcript, view, withRealAgent } from './realAgentTurns';

const FIRST_PROMPT = 'Remember the code word: periwinkle.';
const FIRST_ANSWER = 'Noted, the code word is periwinkle.';

/** The user and agent messages a tab shows, and its notices, in order. */
function conversation(items: readonly TranscriptItem[]): string[] {
  return items.flatMap((i) => (i.kind === 'user_message' ? [`you: ${textOf(i)}`] : i.kind === 'agent_message' ? [`agent: ${textOf(i)}`] : i.kind === 'notice' ? [`notice: ${i.title}`] : []));
}

describe('real agent Claude Agent (real): fork through the extension', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS);
  const ctx = withRealAgent(claudeRecipe, () => [new AnthropicApi()], { permissions: 'auto' });

  /** The session with one finished turn (opened by whichever test runs first, so one test can run alone). */
  async function sessionWithOneTurn(): Promise<string> {
    if (ctx.sessionId) return ctx.sessionId;
    const id = await ctx.sb.backend.lifecycle.open(ctx.agent.name);
    const result = await runTurn(ctx.sb, id, FIRST_PROMPT, [{ text: FIRST_ANSWER }], ctx.agent.endpoint);
    assert.strictEqual(result.error, undefined, `the first turn failed: ${result.error}`);
    ctx.sessionId = id;
    return id;
  }

  it('Fork session: a new tab with the turn and the notice; its next prompt reaches the model with the earlier conversation; the original is untouched', async () => {
    const id = await sessionWithOneTurn();
    assert.strictEqual(view(ctx.sb, id)?.capabilities.fork, true, 'Claude advertises session/fork, so the chat offers it');
    const original = conversation(transcript(ctx.sb, id).items);
    assert.deepStrictEqual(original.filter((l) => !l.startsWith('notice')), [`you: ${FIRST_PROMPT}`, `agent: ${FIRST_ANSWER}`]);

    const fork = await ctx.sb.backend.lifecycle.fork(id);
    assert.ok(fork && fork !== id, `a new session: ${fork}; banner: ${view(ctx.sb, id)?.error?.message}`);
    assert.strictEqual(ctx.sb.backend.sessions.activeTabId(), fork, 'the fork is the active tab');
    assert.notStrictEqual(transcript(ctx.sb, fork).sessionId, transcript(ctx.sb, id).sessionId, "the fork is Claude's own new session");
    const forked = conversation(transcript(ctx.sb, fork).items);
    assert.deepStrictEqual(forked.slice(0, original.length), original, 'the fork shows the first turn');
    assert.ok(forked.slice(original.length).some((l) => /^notice: Forked from “/.test(l)), `then the fork notice: ${forked.join(' | ')}`);

    const before = ctx.agent.endpoint.mainRequests().length;
    const result = await runTurn(ctx.sb, fork, 'What was the code word?', [{ text: 'It was periwinkle, from before the fork.' }], ctx.agent.endpoint);
    assert.strictEqual(result.error, undefined, `the turn in the fork failed: ${result.error}`);
    assert.match(agentText(lastTurn(transcript(ctx.sb, fork))), /It was periwinkle, from before the fork\./);
    const request = ctx.agent.endpoint.mainRequests()[before];
    assert.ok(request, 'the fork asked the model');
    const sent = JSON.stringify((request.body as { messages?: unknown }).messages ?? []);
    assert.ok(sent.includes('Remember the code word: periwinkle.'), `the model got the first prompt in the fork's request: ${sent.slice(0, 2000)}`);
    assert.ok(sent.includes(FIRST_ANSWER), `and the first answer: ${sent.slice(0, 2000)}`);
    assert.ok(sent.includes('What was the code word?'), 'and the new prompt');

    assert.deepStrictEqual(conversation(transcript(ctx.sb, id).items), original, 'the original tab is untouched');
    assert.strictEqual(view(ctx.sb, id)?.turn, 'idle');
  });

  it('Fork from here on the first message of a two-turn session: the new tab shows only the first turn', async () => {
    const id = await sessionWithOneTurn();
    const second = await runTurn(ctx.sb, id, 'Now a second turn.', [{ text: 'Second answer.' }], ctx.agent.endpoint);
    assert.strictEqual(second.error, undefined, `the second turn failed: ${second.error}`);
    const first = transcript(ctx.sb, id).items.find((i) => i.kind === 'user_message');
    assert.ok(first && textOf(first) === FIRST_PROMPT, 'the first user message');

    const fork = await ctx.sb.backend.lifecycle.fork(id, first.id);
    assert.ok(fork && fork !== id, `a new session: ${fork}; banner: ${view(ctx.sb, fork ?? id)?.error?.message}`);
    const shown = conversation(transcript(ctx.sb, fork).items);
    assert.deepStrictEqual(shown.filter((l) => !l.startsWith('notice')), [`you: ${FIRST_PROMPT}`, `agent: ${FIRST_ANSWER}`], 'only the first turn');
    assert.ok(shown.some((l) => /^notice: Forked from “.*” at this message$/.test(l)), `the notice says where it was forked: ${shown.join(' | ')}`);
    assert.match(agentText(transcript(ctx.sb, id).items), /Second answer\./, 'the original keeps both turns');
  });
});
