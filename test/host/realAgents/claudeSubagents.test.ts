// Subagents with the real Claude Agent from npm through the extension: Switchboard advertises `subagents`, so
// claude-agent-acp 0.101 runs the model's Agent (Task) tool as a native child session (subagent_update, the
// child's own session/update stream, session_message from the parent). The endpoint scripts the parent and
// the child separately (test/fixtures/modelEndpoint/claudeSubagents.ts).
import * as assert from 'assert';
import { launchStep, SubagentScriptedApi } from '../../fixtures/modelEndpoint/claudeSubagents';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import type { SubagentItem, TranscriptItem } from '../../../src/shared/transcript';
import { waitFor } from '../index';
import { prompt, textOf } from '../integration/helpers';
import { REAL_TURN_TIMEOUT_MS, transcript, view, withRealAgent } from './realAgentTurns';

const PARENT_PROMPT = 'Ask a helper to look at the README for you.';
const CHILD_PROMPT = 'Read README.md and say what the project is.';
const CHILD_ANSWER = 'The README describes a sample project.';
const PARENT_ANSWER = 'The helper has looked at the README.';

describe('real agent Claude Agent (real): subagents through the extension', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS * 2);
  const api = new SubagentScriptedApi(PARENT_PROMPT, CHILD_PROMPT);
  const ctx = withRealAgent(claudeRecipe, () => [api], { permissions: 'auto' });

  const nests = (id: string): SubagentItem[] => transcript(ctx.sb, id).items.filter((i): i is SubagentItem => i.kind === 'subagent');
  const said = (items: readonly TranscriptItem[]) => items.filter((i) => i.kind === 'agent_message').map(textOf).join(' ');
  /** The parent's turn ended on its own (after the child's nest), not cancelled; the child may outlive it. */
  const assertTurnEnded = (id: string) => {
    const items = transcript(ctx.sb, id).items;
    const ends = items.filter((i) => i.kind === 'turn_end');
    const shape = JSON.stringify(items.map((i) => [i.kind, i.kind === 'turn_end' ? i.stopReason : '']));
    assert.deepStrictEqual(ends.map((e) => e.kind === 'turn_end' && e.stopReason), ['end_turn'], `one turn, ended by the agent: ${shape}`);
    assert.ok(items.indexOf(ends[0]) > items.findIndex((i) => i.kind === 'subagent'), `the turn ends after the child's nest: ${shape}`);
    assert.strictEqual(view(ctx.sb, id)?.turn, 'idle');
  };
  /** The parent's step that starts the child. */
  const launch = launchStep('Handing this to a helper.', 'Look at the README', CHILD_PROMPT);

  it("a Task call starts a child nested under it: the child's Read inside, the child finished, the parent's turn ends", async () => {
    const id = await ctx.sb.backend.lifecycle.open(ctx.agent.name);
    ctx.sessionId = id;
    api.scriptChild([{ text: 'Reading it.', tools: [{ read: { path: 'README.md' } }] }, { text: CHILD_ANSWER }]);
    ctx.agent.endpoint.script([launch, { text: PARENT_ANSWER }]);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(PARENT_PROMPT));
    assert.strictEqual(view(ctx.sb, id)?.error, undefined, `no error: ${view(ctx.sb, id)?.error?.message}`);

    const [nest, ...more] = nests(id);
    assert.ok(nest, `a subagent item in the session: ${JSON.stringify(transcript(ctx.sb, id).items.map((i) => i.kind))}`);
    assert.strictEqual(more.length, 0, 'one child');
    assert.match(nest.toolCallId ?? '', /^toolu_sb/, 'started by the scripted Task call');
    await waitFor(() => nests(id)[0]?.state?.state === 'idle', 'the child to finish', REAL_TURN_TIMEOUT_MS);
    const child = nests(id)[0].transcript.items;
    const reads = child.filter((i) => i.kind === 'tool_call' && JSON.stringify(i.rawInput ?? {}).includes('README.md'));
    assert.strictEqual(reads.length, 1, `the child's Read nested in it: ${JSON.stringify(child.map((i) => i.kind))}`);
    assert.ok(reads[0].kind === 'tool_call' && reads[0].status === 'completed', 'the Read completed');
    // The child's last chunk can reach us after the update that says it finished (Claude's order under load).
    const childSays = () => said(nests(id)[0].transcript.items);
    await waitFor(() => new RegExp(CHILD_ANSWER).test(childSays()), "the child's answer in its nest", 30_000).catch((e: Error) => {
      throw new Error(`${e.message}; the child said ${JSON.stringify(childSays())}, the session ${JSON.stringify(said(transcript(ctx.sb, id).items))}`);
    });
    assert.ok(
      !transcript(ctx.sb, id).items.some((i) => i.kind === 'tool_call' && JSON.stringify(i.rawInput ?? {}).includes('README.md')),
      "the child's Read is not among the session's own calls",
    );
    assertTurnEnded(id);
    assert.ok(api.childRequests >= 2, `the child made its own requests: ${api.childRequests}`);
  });

  it('Cancel from the chat while the child waits for its model: the child ends cancelled, the parent turn goes on', async () => {
    const id = await ctx.sb.backend.lifecycle.open(ctx.agent.name);
    ctx.sessionId = id;
    api.scriptChild([{ hang: true }]);
    ctx.agent.endpoint.script([launch, { text: PARENT_ANSWER }]);
    const before = api.childRequests;
    const turn = ctx.sb.backend.sessions.require(id).prompt(prompt(PARENT_PROMPT));
    const nest = await waitFor(() => (api.childRequests > before ? nests(id).find((n) => n.state?.state === 'running') : undefined), 'the child to run and wait for its model', REAL_TURN_TIMEOUT_MS);
    assert.strictEqual(nest.cancellable, true, 'Claude lets the client cancel a child');
    await ctx.sb.chat.controller.handleMessage({ type: 'cancelSubagent', sessionId: id, subagentSessionId: nest.sessionId });
    await turn;
    assert.strictEqual(view(ctx.sb, id)?.error, undefined, `no error: ${view(ctx.sb, id)?.error?.message}`);
    await waitFor(() => nests(id)[0]?.state?.state === 'idle', 'the child to end', REAL_TURN_TIMEOUT_MS);
    assert.strictEqual(nests(id)[0].state?.state === 'idle' && nests(id)[0].state?.stopReason, 'cancelled', JSON.stringify(nests(id)[0].state));
    assertTurnEnded(id);
  });
});
