// A turn the agent starts itself, in the real workbench with the fake agent taught to steer (--steering): a
// message steered as the agent's turn ends makes it start a turn of its own (`startedNewTurn`, no prompt of
// ours in flight). The chat shows that turn running as one of yours (Stop enabled), and no longer running at
// the turn's end (the agent's end marker, after a second steer).
import * as path from 'path';
import { button, messageBox, REPO, transcript, turnsEnded, until, waitForTurnEnd } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';

const AGENT = 'Fake Steerer';

describe("A turn the agent starts itself shows running until its end", function () {
  this.timeout(240_000);
  const cw = useChatWorkbench({
    name: 'agentTurn',
    agent: AGENT,
    settings: { 'switchboard.agents': { [AGENT]: { command: process.execPath, args: [path.join(REPO, 'test', 'fixtures', 'agents', 'fake-agent.mjs'), '--steering'] } } },
    newSession: true,
  });

  const steer = async (text: string) => {
    const box = messageBox(cw.chat);
    await box.fill(text);
    await button(cw.chat, 'Steer').click();
    await until(async () => (await box.inputValue()) === '', 'the composer to take the message', 30_000);
  };

  it('Stop shows while the agent runs its own turn and goes away at its end', async () => {
    const box = messageBox(cw.chat);
    const ended = await turnsEnded(cw.chat);
    await box.fill('steerable');
    await box.press('Enter');
    await transcript(cw.chat).getByText('waiting for a steer').waitFor({ timeout: 60_000 });
    // The agent ends our turn and starts one of its own with the message.
    await steer('new-turn of its own');
    await waitForTurnEnd(cw.chat, ended, 60_000);
    await transcript(cw.chat).getByText('new turn: new-turn of its own').waitFor({ timeout: 60_000 });
    // Stop is offered (enabled) only while a turn runs.
    await until(async () => button(cw.chat, 'Stop').isEnabled(), 'Stop to be offered for the running turn', 30_000);
    const ownEnded = await turnsEnded(cw.chat);
    await steer('wrap it up');
    await waitForTurnEnd(cw.chat, ownEnded, 60_000);
    await until(async () => button(cw.chat, 'Stop').isDisabled(), 'Stop to be withdrawn at the end', 30_000);
  });
});
