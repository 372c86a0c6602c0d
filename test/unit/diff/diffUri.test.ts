import * as assert from 'assert';
import { diffUriPath, newDiffId, parseDiffUriPath, safeBaseName } from '../../../src/host/diff/review/diffUri';

describe('diff review: switchboard-diff URIs', () => {
  it('carry only an id and the base name', () => {
    const id = newDiffId();
    const p = diffUriPath(id, '/home/me/secret-project/src/app.ts');
    assert.strictEqual(p, `/${id}/app.ts`);
    assert.ok(!p.includes('secret-project'));
    assert.strictEqual(parseDiffUriPath(p), id);
  });

  it('ids are unique and URI-safe', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newDiffId()));
    assert.strictEqual(ids.size, 1000);
    for (const id of ids) assert.match(id, /^[A-Za-z0-9-]+$/);
  });

  it('sanitises odd base names', () => {
    assert.strictEqual(safeBaseName('C:\\x\\y\\file name.ts'), 'file name.ts');
    assert.strictEqual(safeBaseName('/a/b/?q=1#frag'), '_q_1_frag');
    assert.strictEqual(safeBaseName('/a/..'), 'file');
    assert.strictEqual(safeBaseName(''), 'file');
  });

  it('rejects paths that are not ours', () => {
    assert.strictEqual(parseDiffUriPath('/a/b/c'), undefined);
    assert.strictEqual(parseDiffUriPath('/bad id/x'), undefined);
    assert.strictEqual(parseDiffUriPath('nothing'), undefined);
    assert.throws(() => diffUriPath('../x', 'a'));
  });
});
