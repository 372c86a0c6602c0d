import * as assert from 'assert';
import { LineRing, LineSplitter } from '../../../src/agents/stderrLines';

describe('stderrLines', () => {
  it('LineRing keeps the last N lines, oldest first', () => {
    const ring = new LineRing(3);
    assert.deepStrictEqual(ring.toArray(), []);
    for (const line of ['a', 'b']) ring.push(line);
    assert.deepStrictEqual(ring.toArray(), ['a', 'b']);
    for (const line of ['c', 'd', 'e', 'f', 'g']) ring.push(line);
    assert.deepStrictEqual(ring.toArray(), ['e', 'f', 'g']);
    assert.throws(() => new LineRing(0), RangeError);
  });

  it('LineSplitter splits on \\n and \\r\\n across chunks and UTF-8 boundaries, and flushes the last line', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((line) => lines.push(line));
    const bytes = Buffer.from('one\r\ntwo ✓\n\nthree');
    // Split inside the 3-byte check mark.
    const cut = bytes.indexOf(Buffer.from('✓')) + 1;
    splitter.write(bytes.subarray(0, cut));
    splitter.write(bytes.subarray(cut));
    assert.deepStrictEqual(lines, ['one', 'two ✓', '']);
    splitter.end();
    assert.deepStrictEqual(lines, ['one', 'two ✓', '', 'three']);
  });

  it('LineSplitter cuts endless lines so memory stays bounded', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((line) => lines.push(line), 10);
    splitter.write('x'.repeat(25));
    assert.deepStrictEqual(lines, ['x'.repeat(10), 'x'.repeat(10)]);
    splitter.write('yy\n');
    splitter.end();
    assert.deepStrictEqual(lines, ['x'.repeat(10), 'x'.repeat(10), 'xxxxxyy']);
  });
});
