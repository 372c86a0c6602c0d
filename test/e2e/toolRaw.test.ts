// A tool call's raw input and output in the real workbench: results an agent reports only in rawOutput
// (a `read` with a string, Cline's run_commands array) are behind a collapsed "Output" disclosure that
// opens; a shell output sent both as content and in rawOutput (Kilo) is shown once, opened or not.
import * as assert from 'assert';
import type { Locator } from 'playwright-core';
import { button, FAKE_AGENT, sendMessage, toolCall, transcript } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';

/** How often `needle` is in the card's rendered text. */
async function occurrences(card: Locator, needle: string): Promise<number> {
  return (await card.innerText()).split(needle).length - 1;
}

describe('Tool calls: raw input and output', function () {
  this.timeout(180_000);
  const cw = useChatWorkbench({ name: 'tool-raw', agent: FAKE_AGENT, newSession: true });

  before(async () => {
    await sendMessage(cw.chat, 'raw-output', { waitForEnd: true });
  });

  it('a read whose result is only in rawOutput: "Output" is collapsed, and opens to the text', async () => {
    const card = toolCall(transcript(cw.chat), 'Read notes.txt');
    const output = button(card, 'Output');
    await output.waitFor({ timeout: 30_000 });
    assert.strictEqual(await output.getAttribute('aria-expanded'), 'false');
    assert.strictEqual(await occurrences(card, 'raw-read-text'), 0);
    await output.click();
    await card.getByText('raw-read-text').waitFor({ timeout: 30_000 });
    assert.strictEqual(await output.getAttribute('aria-expanded'), 'true');
    assert.strictEqual(await occurrences(card, 'raw-read-text'), 1);
  });

  it('Cline\'s run_commands result, only in rawOutput, opens from "Output"', async () => {
    const card = toolCall(transcript(cw.chat), 'run_commands');
    await button(card, 'Output').click();
    await card.getByText('raw-cline-result', { exact: false }).waitFor({ timeout: 30_000 });
    await button(card, 'Input').click();
    await card.getByText('echo raw-cline', { exact: false }).first().waitFor({ timeout: 30_000 });
  });

  it('a shell output sent as content and in rawOutput.output shows once, with its output disclosure open too', async () => {
    const card = toolCall(transcript(cw.chat), 'List notes');
    await card.getByText('raw-shell-line-2', { exact: false }).first().waitFor({ timeout: 30_000 });
    assert.strictEqual(await occurrences(card, 'raw-shell-line-2'), 1);
    const output = button(card, 'Output');
    await output.click();
    await card.getByText('(shown above)', { exact: false }).first().waitFor({ timeout: 30_000 });
    assert.strictEqual(await occurrences(card, 'raw-shell-line-2'), 1, 'the raw output does not repeat it');
  });
});
