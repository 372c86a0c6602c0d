import * as assert from 'assert';
import { WriteHistory } from '../../../src/host/fs/writeHistory';

const rec = (turnId: string, path: string, before: string | null, after: string) => ({
  sessionId: 's',
  turnId,
  path,
  before,
  after,
  hadUnsavedChanges: false,
});

describe('host: write history', () => {
  it('keeps the first write of a path in a turn as its baseline', () => {
    const h = new WriteHistory();
    h.record(rec('t1', '/a', 'v0', 'v1'));
    h.record(rec('t1', '/b', null, 'new'));
    h.record(rec('t1', '/a', 'v1', 'v2'));
    h.record(rec('t2', '/a', 'v2', 'v3'));
    assert.strictEqual(h.baseline('s', 't1', '/a')?.before, 'v0');
    assert.strictEqual(h.baseline('s', 't1', '/b')?.before, null);
    assert.deepStrictEqual(h.paths('s', 't1'), ['/a', '/b']);
    assert.strictEqual(h.latest('s', '/a')?.after, 'v3');
  });

  it('keeps unsaved user text with the disk text', () => {
    const h = new WriteHistory();
    h.record({ ...rec('t', '/a', 'user typing', 'agent'), hadUnsavedChanges: true, diskBefore: 'saved' });
    const r = h.forTurn('s', 't')[0];
    assert.deepStrictEqual([r.before, r.diskBefore, r.hadUnsavedChanges], ['user typing', 'saved', true]);
  });

  it('drops the oldest records past its byte budget, and clears turns and sessions', () => {
    const h = new WriteHistory(10_000);
    for (let i = 0; i < 50; i++) h.record(rec(`t${i}`, '/a', 'x'.repeat(1000), 'y'.repeat(1000)));
    assert.ok(h.byteSize <= 10_000);
    assert.strictEqual(h.forTurn('s', 't0').length, 0);
    assert.strictEqual(h.forTurn('s', 't49').length, 1);
    h.clearTurn('s', 't49');
    assert.strictEqual(h.forTurn('s', 't49').length, 0);
    h.clearSession('s');
    assert.strictEqual(h.byteSize, 0);
  });
});
