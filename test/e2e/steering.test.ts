// Steering with the real Claude Agent from npm in the real workbench, typed and clicked as a user does: while
// the model's first answer is pending, the composer says Enter queues and offers "Steer"; a message steered
// with it shows in the transcript marked steered, reaches the model in a later request of the same turn (the
// scripted endpoint's log), and the turn ends once, with the answer to it.
import * as assert from 'assert';
import { AnthropicApi } from '../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../fixtures/realAgents/claude';
import { button, messageBox, transcript, turnsEnded, until, waitForTurnEnd } from './helpers/chat';
import { agentsSetting, prepareRealAgent, REAL_TURN_TIMEOUT_MS, type E2ERealAgent } from './helpers/realAgents';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { screenshot } from './helpers/workbench';

const PROMPT = 'Write a short poem about the sea.';
const STEER = 'Change of plan: make it about mountains instead.';
const ANSWER = 'Here is a poem about mountains, as you asked.';

describe('Steering a running turn of the real Claude Agent in the chat', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS * 2);
  const AGENT = 'Claude Steering';
  let claude: E2ERealAgent;

  before(async function () {
    this.timeout(REAL_TURN_TIMEOUT_MS);
    claude = await prepareRealAgent(claudeRecipe, [new AnthropicApi()], { permissions: 'auto', name: AGENT });
  });
  const cw = useChatWorkbench({
    name: 'steering',
    agent: AGENT,
    settings: () => ({ 'switchboard.agents': agentsSetting([claude]), 'switchboard.enterWhileRunning': 'queue' }),
    newSession: true,
    onFailure: () => `--- model endpoint log ---\n${claude.endpoint.describeLog()}`,
  });
  after(() => claude?.dispose());

  it('Steer while the model works: shown as steered, seen by the model in the same turn', async () => {
    const endpoint = claude.endpoint;
    endpoint.script([{ hang: true }, { text: ANSWER }]);
    const first = endpoint.mainRequests().length;
    const ended = await turnsEnded(cw.chat);
    const box = messageBox(cw.chat);
    await box.fill(PROMPT);
    await box.press('Enter');
    await endpoint.waitForMainRequests(first + 1, REAL_TURN_TIMEOUT_MS);
    // The turn runs: Enter queues (the default), Steer sends into the turn, and the composer says so.
    const steer = button(cw.chat, 'Steer');
    await steer.waitFor({ timeout: 60_000 });
    assert.match((await box.getAttribute('placeholder')) ?? '', /Enter queues your message, Steer sends it into the running turn/);
    await box.fill(STEER);
    await steer.click();
    await until(async () => (await box.inputValue()) === '', 'the composer to take the message', 30_000);
    const steered = transcript(cw.chat).getByRole('article', { name: 'You (steered)', exact: true });
    await steered.waitFor({ timeout: 60_000 });
    assert.match((await steered.textContent()) ?? '', /Change of plan: make it about mountains instead\./);
    await waitForTurnEnd(cw.chat, ended, REAL_TURN_TIMEOUT_MS);
    await transcript(cw.chat).getByRole('article', { name: 'Agent' }).filter({ hasText: ANSWER }).waitFor({ timeout: 30_000 });
    await screenshot(cw.page, 'steering-claude');
    // Turn ends are numbered by their item ids: exactly one came after the one before this prompt.
    const newEnds = await transcript(cw.chat)
      .locator('.item[data-kind="turn_end"]')
      .evaluateAll((els, after) => els.filter((e) => Number(/^i(\d+)$/.exec((e as HTMLElement).dataset.itemId ?? '')?.[1] ?? 0) > after).length, ended);
    assert.strictEqual(newEnds, 1, 'one turn');
    assert.strictEqual(await button(cw.chat, 'Steer').count(), 0, 'no Steer once the turn is over');

    const later = endpoint.mainRequests().slice(first + 1);
    assert.ok(
      later.some((r) => JSON.stringify((r.body as { messages?: unknown }).messages ?? []).includes(STEER)),
      `a later main request of the turn carries the steered text:\n${endpoint.describeLog()}`,
    );
  });
});
