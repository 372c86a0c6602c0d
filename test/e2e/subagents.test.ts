// Subagents of the real Claude Agent from npm in the real workbench: the model's Agent (Task) call starts a
// child session, which the chat shows as a card nested in the turn, named by its title, with the child's own
// tool calls inside and its state; "Cancel subagent …" ends a child that waits for its model while the
// parent's turn ends normally. The endpoint scripts parent and child apart (fixtures/modelEndpoint/claudeSubagents.ts).
import * as assert from 'assert';
import type { Locator } from 'playwright-core';
import { launchStep, SubagentScriptedApi } from '../fixtures/modelEndpoint/claudeSubagents';
import { claudeRecipe } from '../fixtures/realAgents/claude';
import { button, newSession, sendMessage, transcript, turnsEnded, until, waitForTurnEnd } from './helpers/chat';
import { agentsSetting, prepareRealAgent, REAL_TURN_TIMEOUT_MS, type E2ERealAgent } from './helpers/realAgents';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { screenshot } from './helpers/workbench';

const PARENT_PROMPT = 'Ask a helper to look at the README for you.';
const CHILD_PROMPT = 'Read README.md and say what the project is.';
const TITLE = 'Look at the README';

describe('Subagents of the real Claude Agent nested in the chat', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS * 3);
  const AGENT = 'Claude Subagents';
  let claude: E2ERealAgent;
  const api = new SubagentScriptedApi(PARENT_PROMPT, CHILD_PROMPT);

  /** The newest subagent card of the visible session named `title`. */
  const nest = (title: string): Locator => transcript(cw.chat).getByRole('group', { name: title, exact: true });
  const stateOf = async (card: Locator): Promise<string> => ((await card.locator('.subagent-state').first().textContent()) ?? '').trim();

  before(async function () {
    this.timeout(REAL_TURN_TIMEOUT_MS);
    claude = await prepareRealAgent(claudeRecipe, [api], { permissions: 'auto', name: AGENT });
  });
  // A model request the test held is let go first, so nothing of this test's turn waits into the next.
  afterEach(() => api.release());
  const cw = useChatWorkbench({
    name: 'subagents',
    agent: AGENT,
    settings: () => ({ 'switchboard.agents': agentsSetting([claude]) }),
    onFailure: () => `--- model endpoint log ---\n${claude.endpoint.describeLog()}`,
  });
  after(() => claude?.dispose());

  it("a Task call shows the child's card in the turn: its title, its Read inside, Running then Finished", async () => {
    await newSession(cw.chat);
    // The child's answer after its Read waits, so the card is seen running with the Read done.
    api.scriptChild([{ text: 'Reading it.', tools: [{ read: { path: 'README.md' } }] }, { text: 'The README describes a sample project.', held: true }]);
    claude.endpoint.script([launchStep('Handing this to a helper.', TITLE, CHILD_PROMPT), { text: 'The helper has looked at the README.' }]);
    const ended = await turnsEnded(cw.chat);
    await sendMessage(cw.chat, PARENT_PROMPT);

    const card = nest(TITLE);
    await card.waitFor({ timeout: REAL_TURN_TIMEOUT_MS });
    assert.match((await card.getAttribute('class')) ?? '', /subagent-nest/, "the group named by the child's title is its card");
    const kinds = await transcript(cw.chat).locator('.virtual-items > .item').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.kind ?? ''));
    assert.ok(kinds.lastIndexOf('subagent') > kinds.lastIndexOf('user_message'), `the card is in the turn, after the prompt: ${kinds.join(', ')}`);
    await until(() => api.holding, "the child's answer to wait for the endpoint", REAL_TURN_TIMEOUT_MS);
    await until(async () => (await stateOf(card)) === 'Running', 'the card to say Running', 60_000);
    // The child's Read is a tool call card inside the child's card, and none of the session's own.
    const read = card.getByRole('group', { name: /README\.md/ });
    await read.first().waitFor({ timeout: 60_000 });
    const ownReads = await transcript(cw.chat).locator('.virtual-items > .item[data-kind="tool_call"]').filter({ hasText: 'README.md' }).count();
    assert.strictEqual(ownReads, 0, "the child's Read is not among the session's own tool calls");
    await screenshot(cw.page, 'subagents-running');

    api.release();
    await until(async () => (await stateOf(card)) === 'Finished', 'the card to say Finished', REAL_TURN_TIMEOUT_MS);
    await waitForTurnEnd(cw.chat, ended, REAL_TURN_TIMEOUT_MS);
    assert.strictEqual(await button(card, `Cancel subagent ${TITLE}`).count(), 0, 'no Cancel on a finished child');
    await screenshot(cw.page, 'subagents-finished');
  });

  it('Cancel subagent in the chat while the child waits for its model: the card says Cancelled, the turn ends normally', async () => {
    await newSession(cw.chat);
    api.scriptChild([{ hang: true }]);
    claude.endpoint.script([launchStep('Handing this to a helper.', TITLE, CHILD_PROMPT), { text: 'The helper has looked at the README.' }]);
    const ended = await turnsEnded(cw.chat);
    const before = api.childRequests;
    await sendMessage(cw.chat, PARENT_PROMPT);

    const card = nest(TITLE);
    await card.waitFor({ timeout: REAL_TURN_TIMEOUT_MS });
    await until(() => api.childRequests > before, 'the child to ask its model', REAL_TURN_TIMEOUT_MS);
    await until(async () => (await stateOf(card)) === 'Running', 'the card to say Running', 60_000);
    const cancel = button(card, `Cancel subagent ${TITLE}`);
    await cancel.click();
    await until(async () => (await stateOf(card)) === 'Cancelled', 'the card to say Cancelled', REAL_TURN_TIMEOUT_MS);
    const end = await waitForTurnEnd(cw.chat, ended, REAL_TURN_TIMEOUT_MS);
    assert.ok(!/reason-cancelled/.test((await end.getAttribute('class')) ?? ''), 'the parent turn was not cancelled');
    assert.ok(await button(cw.chat, 'Stop').isDisabled(), 'no turn runs');
    assert.strictEqual(await cancel.count(), 0, 'no Cancel on a cancelled child');
    await screenshot(cw.page, 'subagents-cancelled');
  });
});
