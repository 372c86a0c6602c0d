import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isBridgeError } from '../../../src/acp/bridgeErrors';
import { decodeText, detectEncoding, readLineWindow, sliceLines } from '../../../src/host/fs/textFileWindow';

describe('host: text decoding', () => {
  it('BOMs pick the encoding and are removed', () => {
    assert.strictEqual(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69])), 'hi');
    assert.strictEqual(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo', 'utf16le')])), 'héllo');
    const be = Buffer.from('hé', 'utf16le').swap16();
    assert.strictEqual(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be])), 'hé');
  });

  it('UTF-16 without BOM is recognised from its zero bytes, like VS Code', () => {
    assert.strictEqual(detectEncoding(Buffer.from('plain ascii text', 'utf16le')), 'utf16le');
    assert.strictEqual(decodeText(Buffer.from('plain ascii text', 'utf16le')), 'plain ascii text');
  });

  it('binary content is refused with -32602 binary_file; invalid UTF-8 becomes U+FFFD', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0]);
    assert.throws(() => decodeText(png, '/x.png'), (e: unknown) => isBridgeError(e) && e.code === -32602 && e.data.reason === 'binary_file');
    assert.strictEqual(decodeText(Buffer.from([0x61, 0xff, 0x62])), 'a\uFFFDb');
  });
});

describe('host: line windows', () => {
  let tmp: string;
  before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-win-'))));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const write = (name: string, data: string | Buffer): string => {
    const p = path.join(tmp, name);
    fs.writeFileSync(p, data);
    return p;
  };

  it('sliceLines: 1-based, terminators kept, beyond EOF empty', () => {
    const t = 'a\nb\r\nc\nd';
    assert.strictEqual(sliceLines(t, { line: 2, limit: 2 }), 'b\r\nc\n');
    assert.strictEqual(sliceLines(t, { line: 4 }), 'd');
    assert.strictEqual(sliceLines(t, { line: 5 }), '');
    assert.strictEqual(sliceLines(t, { limit: 1 }), 'a\n');
    assert.strictEqual(sliceLines(t, { line: 0, limit: 1 }), 'a\n');
    assert.strictEqual(sliceLines(t, { line: 2, limit: 0 }), '');
  });

  it('readLineWindow matches sliceLines on many windows, across 256 KB chunk boundaries and multi-byte characters', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 40000; i++) lines.push(`${i} ${'ü€😀'.repeat(i % 7)} ${'x'.repeat(i % 50)}`);
    const text = lines.join('\n') + '\n';
    const p = write('big.txt', text);
    assert.ok(fs.statSync(p).size > 3 * 256 * 1024);
    const windows = [
      { line: 1, limit: 3 },
      { line: 5000, limit: 10 },
      { line: 9000, limit: 7000 },
      { line: 39999, limit: 10 },
      { line: 40001, limit: 5 },
      { line: 12345 },
      { limit: 20000 },
    ];
    for (const w of windows) assert.strictEqual(await readLineWindow(p, w), sliceLines(text, w), JSON.stringify(w));
  });

  it('skips a UTF-8 BOM, reads UTF-16 files, refuses binary, propagates ENOENT / EISDIR', async () => {
    assert.strictEqual(await readLineWindow(write('bom.txt', '\ufeffone\ntwo\n'), { line: 1, limit: 1 }), 'one\n');
    const u16 = write('u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('one\ntwo\nthree', 'utf16le')]));
    assert.strictEqual(await readLineWindow(u16, { line: 2, limit: 1 }), 'two\n');
    await assert.rejects(readLineWindow(write('bin', Buffer.from([1, 0, 2, 0, 0, 3, 4])), { line: 1 }), (e: unknown) => isBridgeError(e));
    await assert.rejects(readLineWindow(path.join(tmp, 'missing'), { line: 1 }), { code: 'ENOENT' });
    await assert.rejects(readLineWindow(tmp, { line: 1 }), { code: 'EISDIR' });
  });
});
