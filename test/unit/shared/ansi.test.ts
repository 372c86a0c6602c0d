import * as assert from 'assert';
import { AnsiStripper, stripAnsi, stripAnsiStreaming } from '../../../src/shared/ansi';

describe('shared: ANSI stripping', () => {
  it('removes colours, cursor moves, OSC titles, charset designations and control characters, keeps text', () => {
    const raw = '\x1b[1;31mred\x1b[0m \x1b]0;title\x07plain\x1b[2K\r\n\ttab\x00\x1b(B\x1b=\x9b2Jend';
    assert.strictEqual(stripAnsi(raw, 'keep'), 'red plain\r\n\ttabend');
    assert.strictEqual(stripAnsi(raw), 'red plain\n\ttabend');
  });

  it("'lf' (the chat's plain text) turns CRLF into LF and drops a lone CR; 'keep' (terminal/output) keeps both", () => {
    assert.strictEqual(stripAnsi('a\r\nb\r 50%\r100%\n'), 'a\nb 50%100%\n');
    assert.strictEqual(stripAnsi('a\r\nb\r 50%\r100%\n', 'keep'), 'a\r\nb\r 50%\r100%\n');
  });

  it('holds back a sequence split across chunks', () => {
    const s = new AnsiStripper('keep');
    assert.strictEqual(s.push('a\x1b['), 'a');
    assert.strictEqual(s.push('32'), '');
    assert.strictEqual(s.push('mgreen\x1b]0;ti'), 'green');
    assert.strictEqual(s.push('tle\x1b'), '');
    assert.strictEqual(s.push('\\done'), 'done');
    assert.strictEqual(s.flush(), '');
  });

  it('does not hold back text after a complete sequence, nor more than a bounded tail after a stray ESC', () => {
    const s = new AnsiStripper();
    assert.strictEqual(s.push('\x1b]0;t\x1b\\ after'), ' after');
    assert.strictEqual(s.push('\x1b[0m tail'), ' tail');
    const long = `\x1b]0;${'x'.repeat(10_000)}`;
    assert.ok(s.push(long).length > 0, 'an OSC string longer than the carry limit is not held back forever');
  });

  it('flush gives back what was held, stripped, once', () => {
    const s = new AnsiStripper();
    assert.strictEqual(s.push('ok\x1b'), 'ok');
    assert.strictEqual(s.flush(), '', 'a lone ESC at the end is dropped');
    assert.strictEqual(s.push('[3mnext'), '[3mnext', 'the carry was cleared by flush');
  });

  it('the functional form carries the unfinished tail for the caller', () => {
    assert.deepStrictEqual(stripAnsiStreaming('', 'a\u001b[3'), { text: 'a', carry: '\u001b[3' });
    assert.deepStrictEqual(stripAnsiStreaming('\u001b[3', '1mred\r\n'), { text: 'red\n', carry: '' });
  });

  it('survives binary garbage', () => {
    const s = new AnsiStripper();
    const bytes = Buffer.alloc(65536);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    const out = s.push(new TextDecoder().decode(bytes)) + s.flush();
    assert.ok(typeof out === 'string');
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\x00-\x08\x1b\r]/.test(out));
  });
});
