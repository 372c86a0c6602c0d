// A turn's baseline against real git: what a file was before the turn (text, missing, ignored, binary),
// every change at the end, and the fallback when git is missing (logged once, no baseline).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Baselines } from '../../../src/host/diff/baseline/baselines';
import type { DiffLogger } from '../../../src/host/diff/types';

function recordingLog(): DiffLogger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (m: string | Error) => void lines.push(String(m));
  return { lines, info: keep, warn: keep, error: keep, debug: keep };
}

describe('diff review: turn baselines', function () {
  this.timeout(60_000);
  let root: string;
  let work: string;
  let baselines: Baselines;
  let log: ReturnType<typeof recordingLog>;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-baselines-'));
    work = path.join(root, 'work');
    fs.mkdirSync(path.join(work, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(work, '.gitignore'), 'dist/\n');
    fs.writeFileSync(path.join(work, 'a.txt'), 'before\r\n');
    fs.writeFileSync(path.join(work, 'bin.dat'), Buffer.from([1, 0, 2]));
    fs.writeFileSync(path.join(work, 'dist', 'out.js'), 'built');
    log = recordingLog();
    baselines = new Baselines(path.join(root, 'storage'), log);
  });

  afterEach(() => {
    baselines.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('a snapshot warmed when a session opens and the first turn\'s own one run one after the other, and the turn\'s is of its start', async () => {
    baselines.warm([work]);
    // The turn starts while the warm-up runs: both use the one shadow index, so they must not overlap.
    const turn = await baselines.take([work]);
    assert.ok(turn, log.lines.join('\n'));
    assert.ok(!log.lines.some((l) => /index\.lock|no baseline/i.test(l)), log.lines.join('\n'));
    fs.writeFileSync(path.join(work, 'a.txt'), 'after\n');
    assert.strictEqual(await turn.before(path.join(work, 'a.txt')), 'before\r\n');
    const { changes } = await turn.changes();
    assert.deepStrictEqual(changes.map((c) => [path.basename(c.path), c.status]), [['a.txt', 'M']]);
  });

  it('knows each file as it was before the turn, and lists every change at its end', async () => {
    const turn = await baselines.take([work]);
    assert.ok(turn, log.lines.join('\n'));
    fs.writeFileSync(path.join(work, 'a.txt'), 'after\n');
    fs.writeFileSync(path.join(work, 'new.txt'), 'new');
    fs.rmSync(path.join(work, 'bin.dat'));
    fs.writeFileSync(path.join(work, 'dist', 'out.js'), 'rebuilt');
    assert.strictEqual(await turn.before(path.join(work, 'a.txt')), 'before\r\n');
    assert.strictEqual(await turn.before(path.join(work, 'new.txt')), null, 'new in this turn');
    assert.strictEqual(await turn.before(path.join(work, 'bin.dat')), undefined, 'not text');
    assert.strictEqual(await turn.before(path.join(work, 'dist', 'out.js')), undefined, 'ignored: unknown');
    assert.strictEqual(await turn.before(path.join(root, 'elsewhere.txt')), undefined, 'outside the folders');
    const { changes, truncated } = await turn.changes();
    assert.strictEqual(truncated, 0);
    assert.deepStrictEqual(
      changes.sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: path.join(work, 'a.txt'), status: 'M', before: 'before\r\n' },
        { path: path.join(work, 'bin.dat'), status: 'D', before: undefined },
        { path: path.join(work, 'new.txt'), status: 'A', before: null },
      ],
    );
    assert.strictEqual(turn.snapshots.length, 1);
  });

  it('a baseline reopened from its snapshots (a checkpoint) lists what restoring it writes back', async () => {
    const first = await baselines.take([work]);
    assert.ok(first);
    fs.writeFileSync(path.join(work, 'a.txt'), 'turn 1\n');
    const second = await baselines.take([work]);
    assert.ok(second);
    fs.writeFileSync(path.join(work, 'b.txt'), 'turn 2\n');
    const later = new Baselines(path.join(root, 'storage'), log);
    try {
      const back = await later.reopen(first.snapshots);
      const { changes } = await back.changes();
      assert.deepStrictEqual(
        changes.map((c) => [path.basename(c.path), c.before]).sort(),
        [
          ['a.txt', 'before\r\n'],
          ['b.txt', null],
        ],
      );
    } finally {
      later.dispose();
    }
  });

  it('without git there is no baseline, and the log says why once', async () => {
    const path0 = process.env.PATH;
    process.env.PATH = path.join(root, 'no-git-here');
    try {
      assert.strictEqual(await baselines.take([work]), undefined);
      assert.strictEqual(await baselines.take([work]), undefined);
    } finally {
      process.env.PATH = path0;
    }
    assert.strictEqual(log.lines.filter((l) => /git was not found/.test(l)).length, 1, log.lines.join('\n'));
  });

  it('a folder that cannot be snapshotted gives no baseline, and the next turn tries again', async () => {
    assert.strictEqual(await baselines.take([path.join(root, 'missing')]), undefined);
    assert.match(log.lines.join('\n'), /no baseline for this turn/);
    fs.mkdirSync(path.join(root, 'missing'));
    assert.ok(await baselines.take([path.join(root, 'missing')]));
  });
});
