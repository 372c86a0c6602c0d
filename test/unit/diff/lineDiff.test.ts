// The chat card's diff preview counts lines as the changed-files list does (one jsdiff line diff).
import * as assert from 'assert';
import { countLines } from './hunkHelpers';
import { previewDiff } from '../../../src/shared/lineDiff';

describe('previewDiff (the chat card) agrees with the changed-files counts', () => {
  const cases: Array<[string, string | null, string]> = [
    ['a new one-line file', null, 'console.log("hi");\n'],
    ['a new file without a final newline', null, 'a\nb'],
    ['a new three-line file', null, 'a\nb\nc\n'],
    ['one edited line', 'a\nb\nc\n', 'a\nB\nc\n'],
    ['an edit with a moved line (the count a prefix/suffix trim got wrong)', 'function greet(name) {\n  return "Hello, " + name;\n}\nmodule.exports = { greet };\n', 'function greet(name, punct = "!") {\n  return `Hello, ${name}${punct}`;\n}\n\nmodule.exports = { greet };\n'],
    ['lines appended', 'a\n', 'a\nb\nc\n'],
    ['lines removed', 'a\nb\nc\n', 'a\n'],
    ['CRLF text', 'a\r\nb\r\n', 'a\r\nc\r\n'],
  ];
  for (const [label, before, after] of cases) {
    it(label, () => {
      const preview = previewDiff(before, after);
      const counts = countLines(before ?? '', after);
      assert.deepStrictEqual({ added: preview.added, removed: preview.removed }, counts);
      assert.strictEqual(preview.lines.filter((l) => l.sign === '+').length, Math.min(preview.added, 16));
    });
  }

  it('a new file: one added line per line of text; the trailing newline is no extra line', () => {
    const preview = previewDiff(null, 'console.log("hi");\n');
    assert.deepStrictEqual(preview, { lines: [{ sign: '+', text: 'console.log("hi");' }], added: 1, removed: 0, more: 0 });
  });

  it('shows the unchanged line before each change and caps the lines shown', () => {
    const preview = previewDiff('keep\nold\n', 'keep\nnew\n');
    assert.deepStrictEqual(preview.lines, [
      { sign: ' ', text: 'keep' },
      { sign: '-', text: 'old' },
      { sign: '+', text: 'new' },
    ]);
    const big = previewDiff(null, Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n', 16);
    assert.strictEqual(big.lines.length, 16);
    assert.strictEqual(big.more, 24);
    assert.strictEqual(big.added, 40);
  });
});
