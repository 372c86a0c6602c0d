import * as assert from 'assert';
import { ChangeStore } from '../../../src/host/diff/changeStore';

describe('diff review: change store', () => {
  it('keeps the first baseline of a turn and the last agent text', () => {
    const s = new ChangeStore();
    s.record({ sessionId: 's', turnId: 't1', uri: 'file:///a', before: 'v0', after: 'v1' });
    s.record({ sessionId: 's', turnId: 't1', uri: 'file:///a', before: 'v1', after: 'v2' });
    const [e] = s.all();
    assert.strictEqual(e.baseline, 'v0');
    assert.strictEqual(e.agentText, 'v2');
  });

  it('groups by turn in order, and knows later entries for a file', () => {
    const s = new ChangeStore();
    const a1 = s.record({ sessionId: 's', turnId: 't1', uri: 'file:///a', before: 'x', after: 'y' });
    s.record({ sessionId: 's', turnId: 't1', uri: 'file:///b', before: null, after: 'new' });
    s.record({ sessionId: 's', turnId: 't2', uri: 'file:///a', before: 'y', after: 'z' });
    assert.deepStrictEqual(s.turns(), [{ sessionId: 's', turnId: 't1' }, { sessionId: 's', turnId: 't2' }]);
    assert.deepStrictEqual(s.latestTurn(), { sessionId: 's', turnId: 't2' });
    assert.strictEqual(s.forTurn({ sessionId: 's', turnId: 't1' }).length, 2);
    assert.deepStrictEqual(s.laterForSameUri(a1).map((e) => e.turnId), ['t2']);
  });

  it('round-trips through JSON (null = new file, unknown baseline kept as unknown)', () => {
    const s = new ChangeStore();
    s.record({ sessionId: 's', turnId: 't', uri: 'file:///new', before: null, after: 'n' });
    s.record({ sessionId: 's', turnId: 't', uri: 'file:///seen', before: 'old\r\n', after: 'new\r\n' });
    s.record({ sessionId: 's', turnId: 't', uri: 'file:///unseen', before: undefined, after: 'x' });
    const json = JSON.parse(JSON.stringify(s.toJSON(1000)));
    const t = new ChangeStore();
    t.load(json);
    const by = new Map(t.all().map((e) => [e.uri, e]));
    assert.strictEqual(by.get('file:///new')?.baseline, null);
    assert.strictEqual(by.get('file:///seen')?.baseline, 'old\r\n');
    assert.strictEqual(by.get('file:///unseen')?.baseline, undefined);
    // New records after a load do not reuse old sequence numbers.
    const e = t.record({ sessionId: 's', turnId: 't2', uri: 'file:///z', before: 'a', after: 'b' });
    assert.ok(e.seq > Math.max(...s.all().map((x) => x.seq)));
  });

  it('does not persist snapshots over the size limit (they come back as keep-only)', () => {
    const s = new ChangeStore();
    s.record({ sessionId: 's', turnId: 't', uri: 'file:///big', before: 'x'.repeat(100), after: 'y' });
    const t = new ChangeStore();
    t.load(s.toJSON(10));
    assert.strictEqual(t.all()[0].baseline, undefined);
  });

  it('ignores garbage state', () => {
    const t = new ChangeStore();
    t.load(undefined);
    t.load({ version: 1, entries: [{ bogus: true }] } as never);
    assert.strictEqual(t.all().length, 0);
  });
});
