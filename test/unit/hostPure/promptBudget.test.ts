// The prompt budget (one per message: text plus everything embedded) and a terminal's last command as the
// agent gets it, from a recorded shell-integration execution.
import * as assert from 'assert';
import { MentionError } from '../../../src/host/mentions/mentionError';
import { BUDGET_SETTING, DEFAULT_BUDGET_BYTES, PromptBudget, budgetFrom } from '../../../src/host/mentions/promptBudget';
import { formatExecution } from '../../../src/host/mentions/terminalFormat';
import { MAX_TERMINAL_OUTPUT, appendBounded } from '../../../src/host/mentions/terminalOutput';

function refusal(budget: PromptBudget): MentionError {
  try {
    budget.check();
  } catch (e) {
    assert.ok(e instanceof MentionError, `a MentionError, not ${String(e)}`);
    return e;
  }
  assert.fail('the budget let the prompt through');
}

describe('prompt budget', () => {
  it('lets a prompt through up to the byte, counting UTF-8 bytes of the text and every mention', () => {
    const budget = new PromptBudget(10);
    budget.addText('héllo'); // 6 bytes
    budget.add('a.ts', 'abcd', true);
    assert.strictEqual(budget.usedBytes, 10);
    budget.check();
    budget.add('b.ts', 'x', true);
    assert.strictEqual(budget.usedBytes, 11);
    refusal(budget);
  });

  it('names the largest mentions with their sizes, the limit and the ways forward, links for files only', () => {
    const budget = new PromptBudget(1024 * 1024);
    budget.addText('look at these');
    budget.add('big.log', 'x'.repeat(900 * 1024), true);
    budget.add('session:Old work', 'y'.repeat(300 * 1024), false);
    budget.add('small.ts', 'z'.repeat(10), true);
    const e = refusal(budget);
    assert.match(e.message, /^Not sent: this message comes to 1\.2 MB, over the 1\.0 MB one message may carry/);
    assert.match(e.message, /Largest: @big\.log \(900 KB\), @session:Old work \(300 KB\), @small\.ts \(10 bytes\)/);
    assert.match(e.detail, /Nothing was sent/);
    assert.match(e.detail, /@big\.log, @small\.ts.*as a link/, 'files are offered as links');
    assert.doesNotMatch(e.detail, /@session:Old work.*as a link/, 'a session transcript is no file to link');
    assert.ok(e.detail.includes(BUDGET_SETTING));
  });

  it('a session transcript alone over the budget is refused with no link offered', () => {
    const budget = new PromptBudget(100);
    budget.add('session:Long', 'x'.repeat(500), false);
    const e = refusal(budget);
    assert.doesNotMatch(e.detail, /link/);
    assert.match(e.detail, /remove a mention/);
  });

  it('counts an image as the base64 data it is sent as, names it among the largest and offers to remove it', () => {
    const budget = new PromptBudget(1000);
    budget.addText('what is wrong here?'); // 19 bytes
    budget.addImage('screenshot.png', 'A'.repeat(900));
    assert.strictEqual(budget.usedBytes, 919);
    budget.check();
    budget.add('notes.md', 'n'.repeat(100), true);
    const e = refusal(budget);
    assert.match(e.message, /comes to 1019 bytes, over the 1000 bytes one message may carry\. Largest: the image screenshot\.png \(900 bytes\), @notes\.md \(100 bytes\)/);
    assert.match(e.detail, /remove an image or a mention/);
    assert.match(e.detail, /@notes\.md.*as a link/, 'the file is still offered as a link');
    assert.doesNotMatch(e.detail, /screenshot\.png.*as a link/, 'an image is no file to link');
  });

  it('an image without a name is "an image"', () => {
    const budget = new PromptBudget(10);
    budget.addImage(undefined, 'iVBORw0KGgoAAAANSUhEUg==');
    assert.match(refusal(budget).message, /Largest: an image \(24 bytes\)/);
  });

  it('reads the setting: a positive number, else the default', () => {
    assert.strictEqual(budgetFrom(2048), 2048);
    assert.strictEqual(budgetFrom(2048.7), 2048);
    for (const bad of [undefined, null, 0, -5, Number.NaN, Infinity, '2048', {}]) assert.strictEqual(budgetFrom(bad), DEFAULT_BUDGET_BYTES, String(bad));
  });
});

describe("a terminal's last command", () => {
  it('formats a recorded execution: command, output without escape sequences, exit code, folder', () => {
    const text = formatExecution({
      terminalName: 'bash',
      commandLine: 'npm test',
      text: '\x1b]633;C\x07\x1b[32m✓ passes\x1b[0m\r\n\x1b[31m✗ fails\x1b[0m\r\n',
      truncated: false,
      exitCode: 1,
      cwd: '/work/project',
    });
    assert.strictEqual(text, 'Terminal "bash" in /work/project, its last command:\n```console\n$ npm test\n✓ passes\n✗ fails\n```\nExit code: 1\n');
  });

  it('says when output was dropped or the exit code is unknown, and fences output that has fences', () => {
    const text = formatExecution({ terminalName: 'zsh', commandLine: 'cat README.md', text: '```js\nx\n```\n', truncated: true, exitCode: undefined, cwd: undefined });
    assert.ok(text.startsWith('Terminal "zsh", its last command:\n````console\n$ cat README.md\n… (earlier output dropped)\n```js'), text);
    assert.ok(text.endsWith('````\nExit code: unknown\n'), text);
  });

  it('keeps the newest output within the bound', () => {
    let out = { text: '', truncated: false };
    for (let i = 0; i < 5; i++) out = appendBounded(out, String(i).repeat(MAX_TERMINAL_OUTPUT / 2));
    assert.strictEqual(out.text.length, MAX_TERMINAL_OUTPUT);
    assert.ok(out.truncated);
    assert.ok(out.text.endsWith('4') && out.text.startsWith('3'));
  });
});
