// A message typed right after "New session", while the agent is still starting (the fake agent reads
// nothing for 3 s, so its answer to initialize comes that late): the chat takes it at once, shows it, and
// sends it once the session is ready; it is answered once, never dropped, never sent twice. Then the same
// right after a restart of the agent (a message sent in that window used to be lost now and then).
import * as assert from 'assert';
import * as path from 'path';
import { button, messageBox, newSession, REPO, sendMessage, tabs, transcript, turnsEnded, until, waitForTurnEnd } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { runCommand } from './helpers/workbench';

const SLOW_AGENT = 'Slow Agent';

describe('A message sent while the agent starts', function () {
  this.timeout(180_000);
  const cw = useChatWorkbench({
    name: 'new-session-race',
    agent: SLOW_AGENT,
    settings: { 'switchboard.agents': { [SLOW_AGENT]: { command: process.execPath, args: [path.join(REPO, 'test', 'fixtures', 'agents', 'fake-agent.mjs'), '--slow-start=3000'] } } },
  });

  /** Types `text` and presses Enter without waiting for anything first. */
  async function typeAndSend(text: string): Promise<void> {
    const box = messageBox(cw.chat);
    await box.fill(text);
    await box.press('Enter');
  }

  /** The texts of the user's and the agent's messages in the visible transcript, in order. */
  const conversation = async (): Promise<string[]> =>
    transcript(cw.chat)
      .locator('.message')
      .evaluateAll((els) => els.map((el) => `${el.classList.contains('user') ? 'you' : 'agent'}: ${(el.querySelector('.md, .message-body')?.textContent ?? el.textContent ?? '').trim()}`));

  it('right after New session: the message waits for the agent and is answered once', async () => {
    const before = await tabs(cw.chat).count();
    await button(cw.chat, 'New session').click();
    await typeAndSend('sent while starting');
    await until(async () => (await tabs(cw.chat).count()) > before, 'the new session tab', 60_000);
    await waitForTurnEnd(cw.chat, 0, 60_000);
    const said = await conversation();
    assert.strictEqual(said.filter((m) => m.includes('sent while starting')).length, 2, `the message once and its echo once: ${JSON.stringify(said)}`);
    assert.ok(said.some((m) => m.startsWith('agent:') && m.includes('echo: sent while starting')), JSON.stringify(said));
    assert.strictEqual(await transcript(cw.chat).locator('.item[data-kind="error"]').count(), 0, 'no error in the transcript');
  });

  it('right after Restart Agent: the message waits for the agent and is answered once', async () => {
    // A session of its own with a finished turn, so this test does not lean on the one before.
    await newSession(cw.chat);
    await sendMessage(cw.chat, 'before the restart', { waitForEnd: true });
    const ended = await turnsEnded(cw.chat);
    await runCommand(cw.page, 'Switchboard: Restart Agent');
    // The palette returns once the command is picked, before the extension host runs it: type once the
    // header shows the agent restarting, as a user would see it (the slow agent stays there 3 s).
    await cw.chat.locator('.session-header .agent-status:not(.status-ready)').waitFor({ timeout: 30_000 });
    await typeAndSend('sent while restarting');
    await waitForTurnEnd(cw.chat, ended, 60_000);
    const said = await conversation();
    assert.strictEqual(said.filter((m) => m.includes('sent while restarting')).length, 2, `the message once and its echo once: ${JSON.stringify(said)}`);
    // The only error said is that the new process keeps no memory of the session (the fake agent keeps its
    // sessions in memory, so session/load fails): the message itself went through.
    const errors = await transcript(cw.chat).locator('.item[data-kind="error"]').allInnerTexts();
    assert.deepStrictEqual(errors.filter((e) => !/started a new session: it does not remember/.test(e)), [], JSON.stringify(errors));
  });
});
