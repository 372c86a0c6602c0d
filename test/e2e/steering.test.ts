// Steering with the real Claude Agent from npm in the real workbench, typed and clicked as a user does: while
// the model's first answer is pending, the composer says Enter queues and offers "Steer"; a message steered
// with it shows in the transcript marked steered, reaches the model in a later request of the same turn (the
// scripted endpoint's log), and the turn ends once, with the answer to it.
import * as assert from 'assert';
import type { FrameLocator } from 'playwright-core';
import { AnthropicApi } from '../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../fixtures/realAgents/claude';
import { button, messageBox, newSession, openChat, selectAgent, transcript, turnsEnded, until, waitForTurnEnd } from './helpers/chat';
import { agentsSetting, prepareRealAgent, REAL_TURN_TIMEOUT_MS, type E2ERealAgent } from './helpers/realAgents';
import { closeWorkbench, openWorkbench, reportFailure, saveConsole, screenshot, updateSettings, type Workbench } from './helpers/workbench';

const PROMPT = 'Write a short poem about the sea.';
const STEER = 'Change of plan: make it about mountains instead.';
const ANSWER = 'Here is a poem about mountains, as you asked.';

describe('Steering a running turn of the real Claude Agent in the chat', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS * 2);
  let wb: Workbench | undefined;
  let chat: FrameLocator;
  let claude: E2ERealAgent;

  before(async function () {
    this.timeout(REAL_TURN_TIMEOUT_MS);
    claude = await prepareRealAgent(claudeRecipe, [new AnthropicApi()], { permissions: 'auto', name: 'Claude Steering' });
    updateSettings({ 'switchboard.agents': agentsSetting([claude]), 'switchboard.defaultAgent': claude.name, 'switchboard.enterWhileRunning': 'queue' });
    wb = await openWorkbench({ width: 1280, height: 900 });
    chat = await openChat(wb.page);
    await selectAgent(chat, claude.name);
    await newSession(chat);
  });

  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') {
      await reportFailure(wb.page, `steering-${this.currentTest.title}`);
      console.log(`--- model endpoint log ---\n${claude.endpoint.describeLog()}`);
    }
  });

  after(async () => {
    if (wb) saveConsole(wb, 'steering');
    await closeWorkbench(wb);
    await claude?.dispose();
  });

  it('Steer while the model works: shown as steered, seen by the model in the same turn', async () => {
    const endpoint = claude.endpoint;
    endpoint.script([{ hang: true }, { text: ANSWER }]);
    const first = endpoint.mainRequests().length;
    const ended = await turnsEnded(chat);
    const box = messageBox(chat);
    await box.fill(PROMPT);
    await box.press('Enter');
    await endpoint.waitForMainRequests(first + 1, REAL_TURN_TIMEOUT_MS);
    // The turn runs: Enter queues (the default), Steer sends into the turn, and the composer says so.
    const steer = button(chat, 'Steer');
    await steer.waitFor({ timeout: 60_000 });
    assert.match((await box.getAttribute('placeholder')) ?? '', /Enter queues your message, Steer sends it into the running turn/);
    await box.fill(STEER);
    await steer.click();
    await until(async () => (await box.inputValue()) === '', 'the composer to take the message', 30_000);
    const steered = transcript(chat).getByRole('article', { name: 'You (steered)', exact: true });
    await steered.waitFor({ timeout: 60_000 });
    assert.match((await steered.textContent()) ?? '', /Change of plan: make it about mountains instead\./);
    await waitForTurnEnd(chat, ended, REAL_TURN_TIMEOUT_MS);
    await transcript(chat).getByRole('article', { name: 'Agent' }).filter({ hasText: ANSWER }).waitFor({ timeout: 30_000 });
    await screenshot(wb!.page, 'steering-claude');
    // Turn ends are numbered by their item ids: exactly one came after the one before this prompt.
    const newEnds = await transcript(chat)
      .locator('.item[data-kind="turn_end"]')
      .evaluateAll((els, after) => els.filter((e) => Number(/^i(\d+)$/.exec((e as HTMLElement).dataset.itemId ?? '')?.[1] ?? 0) > after).length, ended);
    assert.strictEqual(newEnds, 1, 'one turn');
    assert.strictEqual(await button(chat, 'Steer').count(), 0, 'no Steer once the turn is over');

    const later = endpoint.mainRequests().slice(first + 1);
    assert.ok(
      later.some((r) => JSON.stringify((r.body as { messages?: unknown }).messages ?? []).includes(STEER)),
      `a later main request of the turn carries the steered text:\n${endpoint.describeLog()}`,
    );
  });
});
