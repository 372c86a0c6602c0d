import * as assert from 'assert';
import { DEFAULT_OUTPUT_BYTE_LIMIT, MAX_OUTPUT_BYTE_LIMIT, TerminalOutputBuffer, effectiveOutputLimit } from '../../../src/host/terminal/terminalOutputBuffer';

const EMOJI = '😀'; // 4 bytes in UTF-8: f0 9f 98 80

describe('host: terminal output buffer', () => {
  it('keeps everything under the limit', () => {
    const b = new TerminalOutputBuffer(100);
    b.append('hello ');
    b.append('world');
    assert.strictEqual(b.toString(), 'hello world');
    assert.strictEqual(b.truncated, false);
  });

  it('cuts exactly before a 4-byte emoji when the limit lands on its first byte', () => {
    const b = new TerminalOutputBuffer(10);
    b.append(`ab${EMOJI}cdefgh`); // 2 + 4 + 6 = 12 bytes: drop "ab"
    assert.strictEqual(b.toString(), `${EMOJI}cdefgh`);
    assert.strictEqual(b.byteLength, 10);
    assert.strictEqual(b.truncated, true);
  });

  for (const into of [1, 2, 3]) {
    it(`drops the whole emoji when the cut lands ${into} byte(s) into it`, () => {
      const b = new TerminalOutputBuffer(10 - into);
      b.append(`ab${EMOJI}cdefgh`);
      assert.strictEqual(b.toString(), 'cdefgh');
      assert.strictEqual(b.byteLength, 6);
      assert.ok(b.byteLength <= b.limit);
      assert.strictEqual(b.truncated, true);
    });
  }

  it('aligns across chunk boundaries, also for raw bytes split inside a character', () => {
    const bytes = Buffer.from(`x${EMOJI}yz`); // 1 + 4 + 2
    const b = new TerminalOutputBuffer(5);
    b.append(bytes.subarray(0, 3)); // x f0 9f
    b.append(bytes.subarray(3)); // 98 80 y z
    // 7 bytes, limit 5: dropping 2 lands inside the emoji, so the start moves to "y".
    assert.strictEqual(b.toString(), 'yz');
    assert.strictEqual(b.truncated, true);
  });

  it('keeps only the tail of a single chunk larger than the limit, on a boundary', () => {
    const b = new TerminalOutputBuffer(6);
    b.append(`${'é'.repeat(10)}`); // 20 bytes of 2-byte characters
    assert.strictEqual(b.toString(), 'ééé');
    b.append('a');
    assert.strictEqual(b.toString(), 'éé' + 'a'); // 7 -> drop 1 -> mid-char -> drop 2
  });

  it('a zero limit keeps nothing but reports truncation', () => {
    const b = new TerminalOutputBuffer(0);
    b.append('abc');
    assert.strictEqual(b.toString(), '');
    assert.strictEqual(b.truncated, true);
  });

  it('100 MB through a 1 MiB buffer stays bounded', () => {
    const limit = 1024 * 1024;
    const b = new TerminalOutputBuffer(limit);
    const chunk = `${'line of output '.repeat(4000)}${EMOJI}\n`; // ~60 KB, ends with a 4-byte char
    const before = process.memoryUsage();
    let produced = 0;
    while (produced < 100 * 1024 * 1024) {
      b.append(chunk);
      produced += Buffer.byteLength(chunk);
      assert.ok(b.byteLength <= limit);
    }
    const after = process.memoryUsage();
    assert.strictEqual(b.truncated, true);
    const text = b.toString();
    assert.ok(!text.includes('\uFFFD'), 'the retained text starts on a character boundary');
    assert.ok(Buffer.byteLength(text) <= limit && Buffer.byteLength(text) > limit - 4);
    // Retaining everything would hold 100 MB; allow for garbage not yet collected.
    const grown = after.arrayBuffers + after.heapUsed - (before.arrayBuffers + before.heapUsed);
    assert.ok(grown < 80 * 1024 * 1024, `grew ${grown} bytes`);
  });

  it('effective limits: default, cap, junk', () => {
    assert.strictEqual(effectiveOutputLimit(undefined), DEFAULT_OUTPUT_BYTE_LIMIT);
    assert.strictEqual(effectiveOutputLimit(null), DEFAULT_OUTPUT_BYTE_LIMIT);
    assert.strictEqual(effectiveOutputLimit(-1), DEFAULT_OUTPUT_BYTE_LIMIT);
    assert.strictEqual(effectiveOutputLimit(500), 500);
    assert.strictEqual(effectiveOutputLimit(10 ** 12), MAX_OUTPUT_BYTE_LIMIT);
  });
});
