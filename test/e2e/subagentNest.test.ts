// A subagent's card in the real workbench with the fake agent's `subagent` scenario (child sessions in the
// form claude-agent-acp sends them): the child's permission request shows inside the child's card, in the
// card of the child's tool call, and its button answers it; find in the session reaches the child's
// transcript inside a collapsed card and opens the card, and the collapsed Details of the tool call that
// holds the match, to show it.
import * as assert from 'assert';
import { button, FAKE_AGENT, messageBox, newSession, sendMessage, toolCall, transcript, turnsEnded, until, waitForTurnEnd } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { screenshot } from './helpers/workbench';

const CHILD = 'Explore the code';

describe("A subagent's card: its permission request inside it, find inside it", function () {
  this.timeout(240_000);
  const cw = useChatWorkbench({ name: 'subagent-nest', agent: FAKE_AGENT });

  /** A new session whose turn runs the child up to its permission request; returns the child's card. */
  async function childAsks() {
    await newSession(cw.chat);
    const ended = await turnsEnded(cw.chat);
    await sendMessage(cw.chat, 'subagent');
    const nest = toolCall(transcript(cw.chat), CHILD);
    const request = toolCall(nest, 'Edit notes.txt').getByRole('region', { name: 'Permission: Edit notes.txt' });
    await request.waitFor({ timeout: 60_000 });
    return { nest, request, ended };
  }

  it("shows the child's permission request in the child's tool call inside its card; Allow answers it", async () => {
    const { nest, request, ended } = await childAsks();
    assert.match((await nest.getAttribute('class')) ?? '', /subagent-nest/);
    assert.strictEqual(await transcript(cw.chat).locator('.transcript-after .permission-card').count(), 0, "not among the session's own cards below the transcript");
    assert.strictEqual(await transcript(cw.chat).getByRole('region', { name: 'Permission: Edit notes.txt' }).count(), 1, 'shown once');
    assert.match((await nest.locator('.subagent-state').first().innerText()).trim(), /Waiting for you/);
    await screenshot(cw.page, 'subagent-nest-permission');
    await button(request, 'Allow').click();
    await waitForTurnEnd(cw.chat, ended, 60_000);
    await until(async () => (await nest.locator('.subagent-state').first().innerText()).trim() === 'Finished', 'the child to say Finished', 30_000);
    assert.strictEqual(await request.count(), 0, 'the answered request is gone');
    await toolCall(nest, 'Edit notes.txt').getByText('child permission: allow').waitFor({ timeout: 30_000 });
  });

  it("find reaches the child's tool call output in a collapsed card and opens the card and the call's Details", async () => {
    const { nest, request, ended } = await childAsks();
    await button(request, 'Allow').click();
    await waitForTurnEnd(cw.chat, ended, 60_000);
    const toggle = button(nest, `Transcript of subagent ${CHILD}`);
    await until(async () => (await toggle.isEnabled()) && (await toggle.getAttribute('aria-expanded')) === 'true', 'the card open and closable', 30_000);
    const details = button(toolCall(nest, 'Edit notes.txt'), 'Details of Edit notes.txt');
    await details.click();
    await until(async () => (await details.getAttribute('aria-expanded')) === 'false', "the call's Details collapsed", 30_000);
    await toggle.click();
    await until(async () => (await toggle.getAttribute('aria-expanded')) === 'false', 'the card collapsed', 30_000);
    assert.strictEqual(await nest.getByText('child permission: allow').count(), 0, 'the output is not shown while collapsed');
    await messageBox(cw.chat).click();
    await messageBox(cw.chat).press('Control+f');
    const box = cw.chat.getByRole('searchbox', { name: 'Find in session' });
    await box.waitFor({ timeout: 30_000 });
    await box.fill('child permission: allow');
    await until(async () => (await cw.chat.locator('.find-count').innerText()) === '1 of 1', 'the count "1 of 1"', 30_000);
    await until(async () => (await toggle.getAttribute('aria-expanded')) === 'true', 'find to open the card', 30_000);
    await until(async () => (await details.getAttribute('aria-expanded')) === 'true', "find to open the call's Details", 30_000);
    await nest.getByText('child permission: allow').waitFor({ state: 'visible', timeout: 30_000 });
    const painted = await transcript(cw.chat).evaluate(() => (globalThis as unknown as { CSS: { highlights?: Map<string, Set<unknown>> } }).CSS.highlights?.get('switchboard-find-current')?.size ?? 0);
    assert.strictEqual(painted, 1, 'the match is highlighted');
    await screenshot(cw.page, 'subagent-nest-find');
    await box.press('Escape');
  });
});
