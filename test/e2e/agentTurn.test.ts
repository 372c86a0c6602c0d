// A turn the agent starts itself, in the real workbench with the fake agent taught to steer (--steering): a
// message steered as the agent's turn ends makes it start a turn of its own (`startedNewTurn`, no prompt of
// ours in flight). The chat shows that turn running as one of yours (Stop enabled), and no longer running at
// the turn's end (the agent's end marker, after a second steer).
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import { button, messageBox, newSession, openChat, REPO, selectAgent, transcript, turnsEnded, until, waitForTurnEnd } from './helpers/chat';
import { closeWorkbench, openWorkbench, reportFailure, saveConsole, updateSettings, type Workbench } from './helpers/workbench';

const AGENT = 'Fake Steerer';

describe("A turn the agent starts itself shows running until its end", function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  let chat: FrameLocator;

  before(async () => {
    const fakeAgent = path.join(REPO, 'test', 'fixtures', 'agents', 'fake-agent.mjs');
    updateSettings({ 'switchboard.agents': { [AGENT]: { command: process.execPath, args: [fakeAgent, '--steering'] } }, 'switchboard.defaultAgent': AGENT });
    wb = await openWorkbench({ width: 1280, height: 900 });
    chat = await openChat(wb.page);
    await selectAgent(chat, AGENT);
    await newSession(chat);
  });

  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') await reportFailure(wb.page, `agentTurn-${this.currentTest.title}`);
  });

  after(async () => {
    if (wb) saveConsole(wb, 'agentTurn');
    await closeWorkbench(wb);
  });

  const steer = async (text: string) => {
    const box = messageBox(chat);
    await box.fill(text);
    await button(chat, 'Steer').click();
    await until(async () => (await box.inputValue()) === '', 'the composer to take the message', 30_000);
  };

  it('Stop shows while the agent runs its own turn and goes away at its end', async () => {
    const box = messageBox(chat);
    const ended = await turnsEnded(chat);
    await box.fill('steerable');
    await box.press('Enter');
    await transcript(chat).getByText('waiting for a steer').waitFor({ timeout: 60_000 });
    // The agent ends our turn and starts one of its own with the message.
    await steer('new-turn of its own');
    await waitForTurnEnd(chat, ended, 60_000);
    await transcript(chat).getByText('new turn: new-turn of its own').waitFor({ timeout: 60_000 });
    // Stop is offered (enabled) only while a turn runs.
    await until(async () => button(chat, 'Stop').isEnabled(), 'Stop to be offered for the running turn', 30_000);
    const ownEnded = await turnsEnded(chat);
    await steer('wrap it up');
    await waitForTurnEnd(chat, ownEnded, 60_000);
    await until(async () => button(chat, 'Stop').isDisabled(), 'Stop to be withdrawn at the end', 30_000);
  });
});
