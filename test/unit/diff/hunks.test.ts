import * as assert from 'assert';
import { classifyHunks, computeHunks, keepHunk, revertHunk, revertHunks } from '../../../src/host/diff/hunks';
import { countLines, hunkAtLine } from './hunkHelpers';

describe('diff review: hunks', () => {
  it('finds no hunks for equal texts', () => {
    assert.deepStrictEqual(computeHunks('a\nb\n', 'a\nb\n'), []);
    assert.deepStrictEqual(countLines('', ''), { added: 0, removed: 0 });
  });

  it('splits separate changes into separate hunks with 0-based lines and exact offsets', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\n';
    const after = 'one\nTWO\nthree\nfour\nfive\nsix\n';
    const hunks = computeHunks(before, after);
    assert.ok(hunks);
    assert.strictEqual(hunks.length, 2);
    assert.deepStrictEqual(
      { oldStart: hunks[0].oldStart, oldLines: hunks[0].oldLines, newStart: hunks[0].newStart, newLines: hunks[0].newLines, oldText: hunks[0].oldText, newText: hunks[0].newText },
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, oldText: 'two\n', newText: 'TWO\n' },
    );
    assert.strictEqual(before.slice(hunks[0].oldOffset, hunks[0].oldOffset + hunks[0].oldText.length), 'two\n');
    assert.strictEqual(after.slice(hunks[1].newOffset, hunks[1].newOffset + hunks[1].newText.length), 'six\n');
    assert.strictEqual(hunks[1].oldLines, 0);
    assert.strictEqual(hunks[1].newStart, 5);
    assert.deepStrictEqual(countLines(before, after), { added: 2, removed: 1 });
  });

  it('counts a new file and a deleted file', () => {
    assert.deepStrictEqual(countLines('', 'a\nb\nc'), { added: 3, removed: 0 });
    assert.deepStrictEqual(countLines('a\nb\n', ''), { added: 0, removed: 2 });
  });

  it('reverting every hunk gives the old text back byte for byte (CRLF, no final newline, unicode)', () => {
    const before = 'α\r\nβ\r\nγ\r\nδ';
    const after = 'α\r\nB\r\nγ\r\nδ\r\nε';
    const hunks = computeHunks(before, after);
    assert.ok(hunks);
    assert.strictEqual(revertHunks(after, hunks), before);
  });

  it('reverting one hunk keeps the others; keeping one moves it into the baseline', () => {
    const before = 'a\nb\nc\nd\ne\n';
    const after = 'a\nB\nc\nd\nE\n';
    const hunks = computeHunks(before, after);
    assert.ok(hunks && hunks.length === 2);
    assert.strictEqual(revertHunk(after, hunks[0]), 'a\nb\nc\nd\nE\n');
    assert.strictEqual(revertHunk(after, hunks[1]), 'a\nB\nc\nd\ne\n');
    const newBaseline = keepHunk(before, hunks[0]);
    assert.strictEqual(newBaseline, 'a\nB\nc\nd\ne\n');
    assert.deepStrictEqual(countLines(newBaseline, after), { added: 1, removed: 1 });
  });

  it('finds the hunk at a line, including pure deletions', () => {
    const hunks = computeHunks('a\nb\nc\n', 'a\nc\nX\n');
    assert.ok(hunks);
    assert.strictEqual(hunkAtLine(hunks, 1)?.oldText, 'b\n');
    assert.strictEqual(hunkAtLine(hunks, 2)?.newText, 'X\n');
    assert.strictEqual(hunkAtLine(hunks, 0), undefined);
  });

  describe('classifyHunks (who made which change)', () => {
    const baseline = 'a\nb\nc\nd\ne\nf\ng\n';
    const agent = 'a\nB\nc\nd\ne\nF\ng\n';

    it('everything is the agent when the file is as the agent left it', () => {
      const owned = classifyHunks(baseline, agent, agent);
      assert.ok(owned);
      assert.strictEqual(owned.agent.length, 2);
      assert.strictEqual(owned.user.length, 0);
    });

    it('a user edit elsewhere is the user, and reverting only agent hunks keeps it', () => {
      const current = 'a\nB\nc\nUSER\ne\nF\ng\n';
      const owned = classifyHunks(baseline, agent, current);
      assert.ok(owned);
      assert.strictEqual(owned.agent.length, 2);
      assert.strictEqual(owned.user.length, 1);
      assert.strictEqual(revertHunks(current, owned.agent), 'a\nb\nc\nUSER\ne\nf\ng\n');
    });

    it('a hunk the user already reverted is simply gone', () => {
      const current = 'a\nb\nc\nd\ne\nF\ng\n';
      const owned = classifyHunks(baseline, agent, current);
      assert.ok(owned);
      assert.strictEqual(owned.agent.length, 1);
      assert.strictEqual(owned.user.length, 0);
    });

    it('a user edit inside an agent hunk makes that hunk the user\'s (conservative)', () => {
      const current = 'a\nB2\nc\nd\ne\nF\ng\n';
      const owned = classifyHunks(baseline, agent, current);
      assert.ok(owned);
      assert.strictEqual(owned.agent.length, 1);
      assert.strictEqual(owned.user.length, 1);
      assert.strictEqual(owned.user[0].newText, 'B2\n');
    });
  });
});
