/* global window, performance, setTimeout */
// Driving the workbench for the chat bench: the chat webview's frame, the chat opened with the probe
// installed, a fresh session with an agent, a message sent, the turn's end, and a settled heap before a run.
import { sleep } from '../../scripts/lib/proc.mjs';
import { installProbe } from './chat-probe.mjs';

async function chatFrame(page) {
  const outer = await page.locator('iframe.webview[src*="extensionId=switchboard-dev.switchboard"]').first().elementHandle({ timeout: 90_000 });
  const host = await outer.contentFrame();
  const inner = await host.locator('#active-frame').elementHandle({ timeout: 90_000 });
  return inner.contentFrame();
}

/** Shows the chat and installs the probe in its webview (with the frame clock when `frameClock`). */
export async function openChat(page, frameClock) {
  const item = page.locator('.part.activitybar .action-item[role="tab"]').filter({ has: page.locator('a.action-label[aria-label^="Switchboard"]') }).first();
  await item.waitFor({ state: 'visible', timeout: 90_000 });
  if ((await item.getAttribute('aria-selected')) !== 'true') await item.click();
  const frame = await chatFrame(page);
  await frame.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible', timeout: 90_000 });
  await frame.evaluate(installProbe, frameClock);
  return frame;
}

/** Picks `agent` and starts a new session with it; resolves when the new tab is selected and empty. */
export async function freshSession(frame, agent) {
  const picker = frame.getByRole('combobox', { name: 'Agent' });
  for (let i = 0; i < 150 && !(await picker.locator('option').allTextContents()).includes(agent); i++) await sleep(200);
  const tabs = frame.getByRole('tab');
  const before = await tabs.count();
  const current = await picker.evaluate((el) => el.selectedOptions[0]?.textContent ?? '');
  if (current !== agent) {
    await picker.selectOption({ label: agent });
    // With a session open, choosing another agent starts a session with it.
    for (let i = 0; before > 0 && i < 150 && (await tabs.count()) === before; i++) await sleep(200);
  }
  if ((await tabs.count()) === before) await frame.getByRole('button', { name: 'New session', exact: true }).click();
  for (let i = 0; i < 300; i++) {
    if ((await tabs.count()) > before && (await tabs.last().getAttribute('aria-selected')) === 'true') break;
    await sleep(200);
  }
  await frame.getByText('Ask the agent anything').waitFor({ timeout: 60_000 });
}

export async function send(frame, text) {
  const box = frame.getByRole('textbox', { name: 'Message' });
  await box.click();
  await box.fill(text);
  await box.press('Enter');
}

export async function waitIdle(frame, timeoutMs = 120_000) {
  const stop = frame.getByRole('button', { name: 'Stop', exact: true });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await stop.isDisabled()) return;
    await sleep(200);
  }
}

/**
 * gc() until the heap stops shrinking (at most 4 times), so a run starts clean: one gc() leaves the
 * garbage of the previous run that only a second collection frees (DOM wrappers, weak maps), and the
 * first measured run then paid for a 60-80 ms major GC of it.
 */
export async function settleHeap(frame) {
  await frame.evaluate(async () => {
    if (typeof window.gc !== 'function') return;
    let before = Infinity;
    for (let i = 0; i < 4; i++) {
      window.gc();
      await new Promise((r) => setTimeout(r, 50));
      const now = performance.memory?.usedJSHeapSize ?? 0;
      if (now > before * 0.99) return;
      before = now;
    }
  });
}
