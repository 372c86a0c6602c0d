// Subagents with the real Claude Agent from npm through the extension: Switchboard advertises `subagents`, so
// claude-agent-acp 0.101 runs the model's Agent (Task) tool as a native child session (subagent_update, the
// child's own session/update stream, session_message from the parent). The child's model requests are a
// conversation of their own: the endpoint tells them from the parent's by the prompt each carries (never by
// order), and scripts each side separately. Measured with 0.101.0 / Claude Code 2.1.318: the child runs in the
// background, the parent's model may answer before the child ends, and Claude Code tells the parent of the
// child's end in a request whose last message is a `<task-notification>`, during or after the turn.
import * as assert from 'assert';
import { AnthropicApi, messagesText, offeredTools, type MessagesRequest, type NamedToolStep } from '../../fixtures/modelEndpoint/anthropic';
import type { ApiHandler, ApiRequest, Step } from '../../fixtures/modelEndpoint/endpoint';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import type { SubagentItem, TranscriptItem } from '../../../src/shared/transcript';
import { waitFor } from '../index';
import { prompt, textOf } from '../integration/helpers';
import { REAL_TURN_TIMEOUT_MS, transcript, view, withRealAgent } from './realAgentTurns';

const PARENT_PROMPT = 'Ask a helper to look at the README for you.';
const CHILD_PROMPT = 'Read README.md and say what the project is.';
const CHILD_ANSWER = 'The README describes a sample project.';
const PARENT_ANSWER = 'The helper has looked at the README.';
/** The launcher tool as a script names it; the endpoint answers with the one the agent offers (Agent or Task). */
const LAUNCHER = 'Agent';

/** What the parent's model says when Claude Code tells it a child ended (a `<task-notification>`). */
const AFTER_CHILD = 'Noted that the helper ended.';

/**
 * The Anthropic API with two scripts: requests whose conversation carries the child's prompt and not the
 * parent's take the child's steps; the parent's request that only tells it a child ended (Claude Code runs the
 * Agent tool's child in the background and tells the parent when it ends, during or after the turn) gets
 * AFTER_CHILD and takes no step; every other main request takes the endpoint's script (the parent's).
 */
class ChildScriptedApi implements ApiHandler {
  readonly api = 'anthropic' as const;
  private readonly inner = new AnthropicApi();
  private childSteps: Step[] = [];
  /** How many main requests of the child arrived (a held one counts). */
  childRequests = 0;

  scriptChild(steps: readonly Step[]): void {
    this.childSteps = [...steps];
  }

  matches(method: string, url: URL): boolean {
    return this.inner.matches(method, url);
  }

  async handle(request: ApiRequest): Promise<void> {
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as MessagesRequest;
    const text = messagesText(body);
    if (text.includes(CHILD_PROMPT) && !text.includes(PARENT_PROMPT) && request.url.pathname === '/v1/messages') {
      const takeStep = (): Step => {
        this.childRequests++;
        return this.childSteps.shift() ?? { text: 'Done.' };
      };
      return this.inner.handle({ ...request, takeStep });
    }
    const last = body.messages?.at(-1);
    if (messagesText({ messages: last === undefined ? [] : [last] }).includes('<task-notification>')) {
      return this.inner.handle({ ...request, takeStep: () => ({ text: AFTER_CHILD }) });
    }
    // The parent's launch step names the tool the agent offers to start a subagent.
    const launcher = offeredTools(body).find((t) => t.name === 'Agent' || t.name === 'Task')?.name;
    const takeStep = (): Step => {
      const step: NamedToolStep = request.takeStep();
      if (!launcher || !step.namedTools) return step;
      const renamed: NamedToolStep = { ...step, namedTools: step.namedTools.map((t) => (t.name === LAUNCHER ? { ...t, name: launcher } : t)) };
      return renamed;
    };
    return this.inner.handle({ ...request, takeStep });
  }
}

describe('real agent Claude Agent (real): subagents through the extension', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS * 2);
  const api = new ChildScriptedApi();
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
  const launch: NamedToolStep = {
    text: 'Handing this to a helper.',
    namedTools: [{ name: LAUNCHER, input: { description: 'Look at the README', prompt: CHILD_PROMPT, subagent_type: 'general-purpose' } }],
  };

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
    assert.match(said(child), new RegExp(CHILD_ANSWER), "the child's answer in its nest");
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
