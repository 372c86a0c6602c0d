// Saving our edit of a buffer: saved at once when it can be, tried again while a save fails, given up after the
// backoff, never saved once the user typed into it (its version moved) and not tried when it is saved already.
import * as assert from 'assert';
import { saveOurEdit, type SavableDocument } from '../../../src/host/fs/saveOurEdit';
import { FakeClock } from '../fakeTimers';

/** A buffer holding our edit at version 7 whose first `failures` saves fail; `onSave` runs at each attempt. */
class Buffer implements SavableDocument {
  version = 7;
  isDirty = true;
  saves = 0;
  constructor(
    private readonly failures: number,
    private readonly onSave: (doc: Buffer) => void = () => undefined,
  ) {}

  save(): Promise<boolean> {
    this.saves++;
    this.onSave(this);
    if (this.saves <= this.failures) return Promise.resolve(false);
    this.isDirty = false;
    return Promise.resolve(true);
  }
}

describe('host: saving our edit of a buffer', () => {
  it('saves at once', async () => {
    const doc = new Buffer(0);
    assert.strictEqual(await saveOurEdit(doc, 7), 'saved');
    assert.strictEqual(doc.saves, 1);
    assert.strictEqual(doc.isDirty, false);
  });

  describe('backing off (simulated time)', () => {
    let clock: FakeClock | undefined;
    afterEach(() => clock?.restore());

    it('a save that fails the first times: tried again until it saves', async () => {
      clock = new FakeClock();
      const doc = new Buffer(3);
      assert.strictEqual(await clock.until(saveOurEdit(doc, 7), 10_000), 'saved');
      assert.strictEqual(doc.saves, 4);
      assert.strictEqual(doc.isDirty, false);
      assert.strictEqual(clock.now, 250 + 500 + 1000, 'each wait doubles');
    });

    it('a save that always fails: given up after a bounded number of attempts, said failed', async () => {
      clock = new FakeClock();
      const doc = new Buffer(Number.POSITIVE_INFINITY);
      assert.strictEqual(await clock.until(saveOurEdit(doc, 7), 10_000), 'failed');
      assert.strictEqual(doc.saves, 5);
      assert.strictEqual(doc.isDirty, true);
      assert.strictEqual(clock.now, 250 + 500 + 1000 + 2000, 'about 4 s in all before failed');
    });
  });

  it('the user typed between attempts: it stops, and what they typed is not saved', async () => {
    // The first save fails; the user types before the next attempt (the version moves on).
    const doc = new Buffer(1, (d) => {
      if (d.saves === 1) setTimeout(() => d.version++, 0);
    });
    assert.strictEqual(await saveOurEdit(doc, 7), 'theirs');
    assert.strictEqual(doc.saves, 1, 'no save after the user typed');
    assert.strictEqual(doc.isDirty, true, 'their text stays unsaved');
  });

  it('the user typed during a failing save: it stops at once', async () => {
    const doc = new Buffer(Number.POSITIVE_INFINITY, (d) => d.version++);
    assert.strictEqual(await saveOurEdit(doc, 7), 'theirs');
    assert.strictEqual(doc.saves, 1);
  });

  it('the user typed before the first attempt: never saved', async () => {
    const doc = new Buffer(0);
    doc.version = 8;
    assert.strictEqual(await saveOurEdit(doc, 7), 'theirs');
    assert.strictEqual(doc.saves, 0);
    assert.strictEqual(doc.isDirty, true);
  });

  it('saved already (auto save), or saved by someone else while a save failed: saved, not tried again', async () => {
    const clean = new Buffer(0);
    clean.isDirty = false;
    assert.strictEqual(await saveOurEdit(clean, 7), 'saved');
    assert.strictEqual(clean.saves, 0);
    // VS Code's save answers false when the buffer was saved meanwhile.
    const autoSaved = new Buffer(Number.POSITIVE_INFINITY, (d) => (d.isDirty = false));
    assert.strictEqual(await saveOurEdit(autoSaved, 7), 'saved');
    assert.strictEqual(autoSaved.saves, 1);
  });
});
