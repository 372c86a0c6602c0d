// The checkpoint side of the turn baselines with a diff review of its own: a folder too large for
// snapshots has no checkpoint, and says why.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DiffReview } from '../../../src/host/diff/index';
import { MAX_NEW_BYTES, MAX_SNAPSHOT_FILE_BYTES } from '../../../src/host/diff/baseline/shadowGit';
import { MemoryMemento, silentLog } from './helpers';

describe('checkpoints: a folder too large for snapshots', function () {
  this.timeout(120_000);
  let root: string;
  let review: DiffReview;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-checkpoint-'));
    review = new DiffReview({ memento: new MemoryMemento(), log: silentLog, storageDir: path.join(root, 'storage') });
  });

  afterEach(() => {
    review.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('takes no checkpoint and says the folder is too large', async () => {
    const folder = path.join(root, 'huge');
    fs.mkdirSync(folder);
    // Sparse files just under the per-file limit, more of them together than a snapshot takes: nothing is read.
    const count = Math.floor(MAX_NEW_BYTES / MAX_SNAPSHOT_FILE_BYTES) + 2;
    for (let i = 0; i < count; i++) {
      const file = path.join(folder, `part-${i}.bin`);
      fs.writeFileSync(file, '');
      fs.truncateSync(file, MAX_SNAPSHOT_FILE_BYTES);
    }
    const trees = await review.checkpoints();
    assert.ok(trees, 'checkpoints are kept with a storage folder');
    const taken = await trees.take([folder]);
    assert.strictEqual(taken.snapshots, undefined);
    assert.match(taken.problem ?? '', /too large/);
    // The next turn of that folder has no baseline either, for the same reason.
    assert.strictEqual(await review.beginTurn('s', 't', [folder], 'a turn'), undefined);
    assert.match(trees.lastProblem ?? '', /too large/);
    await review.endTurn('s');
  });
});
