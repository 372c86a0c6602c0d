import * as assert from 'assert';
import * as path from 'path';
import { MAX_DIFF_BYTES, formatBytes, inspectPath, inspectTexts, isInsideAny, looksBinary } from '../../../src/host/diff/inspect';
import { pickOption } from '../../../src/host/diff/review/pickOption';

describe('diff review: input checks', () => {
  const root = path.resolve('/work/project');

  it('paths inside, outside, relative and look-alike siblings', () => {
    const isInside = (r: string, file: string) => isInsideAny([r], file);
    assert.ok(isInside(root, path.join(root, 'src/a.ts')));
    assert.ok(isInside(root, root));
    assert.ok(isInside(root, path.join(root, '..hidden/a.ts')), 'a child named "..hidden" is inside');
    assert.ok(!isInside(root, path.resolve('/work/project-other/a.ts')));
    assert.ok(!isInside(root, path.join(root, '../x/a.ts')));
    assert.ok(isInsideAny([path.resolve('/elsewhere'), root], path.join(root, 'b.ts')));
    assert.ok(!isInsideAny([], path.join(root, 'b.ts')));
    assert.strictEqual(inspectPath(path.join(root, 'a.ts'), [root]), undefined);
    assert.strictEqual(inspectPath('/etc/passwd', [root])?.kind, 'outsideWorkspace');
    assert.match(inspectPath('/etc/passwd', [root])?.message ?? '', /outside the workspace/);
    assert.strictEqual(inspectPath('src/a.ts', [root])?.kind, 'relative');
  });

  it('binary text and bytes', () => {
    assert.ok(looksBinary('abc\u0000def'));
    assert.ok(looksBinary(new Uint8Array([0x50, 0x4b, 0x03, 0x00])));
    assert.ok(!looksBinary('plain text ü'));
    assert.strictEqual(inspectTexts('img.png', ['ok', '\u0000\u0001'])?.kind, 'binary');
  });

  it('a 5 MB file is refused with its size in the message', () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const problem = inspectTexts('big.log', [null, big]);
    assert.strictEqual(problem?.kind, 'tooLarge');
    assert.match(problem?.message ?? '', /5\.0 MB/);
    assert.strictEqual(inspectTexts('ok.ts', ['x'.repeat(MAX_DIFF_BYTES)]), undefined);
    assert.strictEqual(formatBytes(512), '512 B');
  });

  it('Accept prefers allow_once, Reject prefers reject_once', () => {
    const opts = [
      { optionId: 'aa', name: 'Always', kind: 'allow_always' },
      { optionId: 'ao', name: 'Allow', kind: 'allow_once' },
      { optionId: 'ra', name: 'Never', kind: 'reject_always' },
      { optionId: 'ro', name: 'Reject', kind: 'reject_once' },
    ];
    assert.strictEqual(pickOption(opts, 'accept')?.optionId, 'ao');
    assert.strictEqual(pickOption(opts, 'reject')?.optionId, 'ro');
    assert.strictEqual(pickOption(opts.slice(0, 1), 'accept')?.optionId, 'aa');
    assert.strictEqual(pickOption(opts.slice(0, 2), 'reject'), undefined);
  });
});
