// A long session in the real workbench: the fake agent's `transcript <n>` (hundreds of prompts, answers and
// tool calls in one turn). The transcript is virtualized: a user scrolls to its first message without a
// click, find reaches a match far above what is rendered, Alt+Up/Down jump between prompts, and the
// transcript stays a log that announces what arrives at its end.
import * as assert from 'assert';
import type { FrameLocator, Locator } from 'playwright-core';
import { FAKE_AGENT, messageBox, sendMessage, transcript, until } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';

const ITEMS = 600;
const PROMPTS = 1 + ITEMS / 4; // the user's own prompt, then every 4th item

/** The kind and text of the item at the top of the transcript's viewport. */
function itemAtTop(log: Locator): Promise<{ kind: string; text: string }> {
  return log.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + 12);
    const item = hit?.closest('.item') as HTMLElement | null;
    return { kind: item?.dataset.kind ?? '', text: (item?.textContent ?? '').trim().slice(0, 80) };
  });
}

const findCount = (chat: FrameLocator) => chat.locator('.find-count');
const promptStatus = (chat: FrameLocator) => chat.locator('.transcript + .visually-hidden[role="status"]');

describe('A long session: virtualized transcript, find, jump to prompt', function () {
  this.timeout(300_000);
  const cw = useChatWorkbench({ name: 'long-transcript', agent: FAKE_AGENT, newSession: true });

  before(async () => {
    await sendMessage(cw.chat, `transcript ${ITEMS}`, { waitForEnd: true, timeoutMs: 180_000 });
    await transcript(cw.chat).getByText(`Long answer ${ITEMS - 1}`).waitFor({ timeout: 60_000 });
  });

  it('is a log, with only the items near the viewport in the DOM and no "Show earlier" to click', async () => {
    const log = transcript(cw.chat);
    assert.strictEqual(await log.getAttribute('aria-live'), 'polite');
    const items = await log.locator('.item').count();
    assert.ok(items > 0 && items < ITEMS / 2, `${items} items in the DOM of ${ITEMS + 2}`);
    assert.strictEqual(await cw.chat.getByRole('button', { name: /Show earlier/ }).count(), 0);
  });

  it('scrolls with the mouse wheel to the first message of the session', async () => {
    const log = transcript(cw.chat);
    await log.hover();
    const first = log.getByText(`transcript ${ITEMS}`, { exact: true });
    await until(async () => {
      if (await first.isVisible()) return true;
      await cw.page.mouse.wheel(0, -4000);
      return false;
    }, 'the first message after scrolling up', 120_000, 100);
    await log.getByText('Long prompt 0', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.strictEqual(await log.getByText(`Long answer ${ITEMS - 1}`).count(), 0, 'the end is out of the DOM now');
  });

  it('find (Ctrl+F) reaches a match far above, counts it, and says when nothing matches (literally)', async () => {
    const log = transcript(cw.chat);
    await log.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await until(async () => (await log.getByText(`Long answer ${ITEMS - 1}`).count()) === 1, 'back at the end', 30_000);
    assert.strictEqual(await log.getByText('needle-first').count(), 0, 'the match is not rendered before find');
    await messageBox(cw.chat).click();
    await messageBox(cw.chat).press('Control+f');
    const box = cw.chat.getByRole('searchbox', { name: 'Find in session' });
    await box.waitFor({ timeout: 30_000 });
    await box.fill('needle-first');
    await until(async () => (await findCount(cw.chat).innerText()) === '1 of 1', 'the count "1 of 1"', 30_000);
    await log.getByText(/needle-first/).waitFor({ state: 'visible', timeout: 30_000 });
    // Painted with the CSS Custom Highlight API.
    const painted = await log.evaluate(() => (globalThis as unknown as { CSS: { highlights?: Map<string, Set<unknown>> } }).CSS.highlights?.get('switchboard-find-current')?.size ?? 0);
    assert.strictEqual(painted, 1, 'the current match is highlighted');
    await box.fill('Long prompt');
    await until(async () => /^\d+ of 150$/.test(await findCount(cw.chat).innerText()), 'every prompt counted, rendered or not', 30_000);
    await box.fill('Long (prompt|answer) 1');
    await until(async () => (await findCount(cw.chat).innerText()) === 'No results', '"No results" for a regular expression taken literally', 30_000);
    await box.press('Escape');
    await until(async () => (await box.count()) === 0, 'find closed by Escape', 30_000);
  });

  it('Alt+Up / Alt+Down jump to the previous / next prompt', async () => {
    const log = transcript(cw.chat);
    await log.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await until(async () => (await log.getByText(`Long answer ${ITEMS - 1}`).count()) === 1, 'back at the end', 30_000);
    await messageBox(cw.chat).click();
    await messageBox(cw.chat).press('Alt+ArrowUp');
    const status = (await until(async () => /^Prompt (\d+) of (\d+)$/.exec(await promptStatus(cw.chat).innerText()) ?? undefined, 'a prompt jump announced', 30_000))!;
    assert.strictEqual(Number(status[2]), PROMPTS);
    const top = (await until(async () => { const t = await itemAtTop(log); return t.kind === 'user_message' ? t : undefined; }, 'a prompt at the top of the transcript', 30_000))!;
    await messageBox(cw.chat).press('Alt+ArrowUp');
    const earlier = (await until(async () => { const t = await itemAtTop(log); return t.kind === 'user_message' && t.text !== top.text ? t : undefined; }, 'the prompt before it at the top', 30_000))!;
    const n = (t: { text: string }) => Number(/Long prompt (\d+)/.exec(t.text)?.[1]);
    assert.strictEqual(n(earlier), n(top) - 4, `${earlier.text} comes before ${top.text}`);
    await messageBox(cw.chat).press('Alt+ArrowDown');
    await until(async () => {
      const now = await itemAtTop(log);
      if (now.text === top.text) return true;
      throw new Error(`at the top: ${now.kind} "${now.text}", ${await promptStatus(cw.chat).innerText()}`);
    }, 'the next prompt at the top again', 30_000);
    assert.strictEqual(await messageBox(cw.chat).inputValue(), '', 'the composer did not recall a sent message');
  });

  it('a message sent at the end is added to the log where a screen reader hears it', async () => {
    await sendMessage(cw.chat, 'after the long one', { waitForEnd: true });
    const log = transcript(cw.chat);
    await log.getByText('echo: after the long one').waitFor({ state: 'visible', timeout: 60_000 });
    assert.strictEqual(await log.getAttribute('role'), 'log');
    assert.strictEqual(await log.locator('.virtual-items[aria-live="off"]').count(), 0, 'the items at the end are not silenced');
  });
});
