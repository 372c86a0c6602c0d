import * as assert from 'assert';
import { fuzzyScore, labelThenDetail, rankByFuzzy } from '../../../src/shared/fuzzy';

describe('shared: fuzzyScore', () => {
  it('matches subsequences case-insensitively and rejects the rest', () => {
    assert.ok(fuzzyScore('cc', 'chatController.ts') > 0);
    assert.ok(fuzzyScore('CHAT', 'chatController.ts') > 0);
    assert.strictEqual(fuzzyScore('xyz', 'chatController.ts'), 0);
    assert.strictEqual(fuzzyScore('ba', 'ab'), 0, 'order matters');
    assert.strictEqual(fuzzyScore('', 'anything'), 1);
  });

  it('prefers prefixes, word starts and contiguous runs, then shorter targets', () => {
    assert.ok(fuzzyScore('read', 'readme.md') > fuzzyScore('read', 'thread.ts'));
    assert.ok(fuzzyScore('types', 'src/types.ts') > fuzzyScore('types', 'src/xtypes.ts'), 'word start after /');
    assert.ok(fuzzyScore('abc', 'abcx') > fuzzyScore('abc', 'axbxc'));
    assert.ok(fuzzyScore('a', 'a.ts') > fuzzyScore('a', 'a-long-name.ts'));
  });
});

describe('shared: rankByFuzzy', () => {
  const files = [
    { label: 'store.ts', detail: 'webview-ui/src' },
    { label: 'index.ts', detail: 'src/store' },
    { label: 'README.md', detail: '' },
    { label: 'storage.ts' },
  ];

  it('keeps only matches, best first; a label match beats the same match in the detail', () => {
    assert.deepStrictEqual(
      rankByFuzzy('store', files, labelThenDetail).map((f) => f.label),
      ['store.ts', 'storage.ts', 'index.ts'],
    );
    const inDetail = { label: 'x', detail: 'store' };
    const inLabel = { label: 'store', detail: 'x' };
    assert.deepStrictEqual(rankByFuzzy('store', [inDetail, inLabel], labelThenDetail), [inLabel, inDetail]);
    assert.deepStrictEqual(rankByFuzzy('zzz', files, labelThenDetail), []);
  });

  it('an empty or blank query keeps every item in order; the limit applies either way', () => {
    assert.deepStrictEqual(rankByFuzzy('', files, labelThenDetail), files);
    assert.deepStrictEqual(rankByFuzzy('  ', files, labelThenDetail, { limit: 2 }), files.slice(0, 2));
    assert.deepStrictEqual(rankByFuzzy('st', files, labelThenDetail, { limit: 1 }).length, 1);
  });

  it('trims the query and keeps the input order for equal scores', () => {
    const same = [{ label: 'a1' }, { label: 'a2' }, { label: 'a3' }];
    assert.deepStrictEqual(rankByFuzzy(' a ', same, labelThenDetail), same);
  });

  it('laterFieldPenalty 0 ranks every field alike (history: title or agent)', () => {
    const history = [
      { title: 'Fix the build', agent: 'Codex' },
      { title: 'Refactor', agent: 'Claude Agent' },
    ];
    const fields = (h: (typeof history)[number]) => [h.title, h.agent];
    assert.deepStrictEqual(rankByFuzzy('claude', history, fields, { laterFieldPenalty: 0 }), [history[1]]);
    assert.deepStrictEqual(rankByFuzzy('fix', history, fields, { laterFieldPenalty: 0 }), [history[0]]);
  });
});
