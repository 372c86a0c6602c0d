// Not a test: the extension-host half of bench/checkpoints.bench.ts. It runs only when the bench sets
// SWITCHBOARD_CHECKPOINTS_BENCH (a JSON path for the results) and skips otherwise; nothing here asserts timings.
// Restoring a 50-file checkpoint in a 2,000-file folder: the plan (a snapshot now, the diff against the
// checkpoint and the bytes then, from the shadow repository) and the one WorkspaceEdit that writes them back.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { writeTargets } from '../../../src/host/diff/baseline/checkpointRestore';
import type { CheckpointFilePlan } from '../../../src/host/diff/baseline/checkpointTrees';
import { DiffReview } from '../../../src/host/diff/index';
import { median } from '../../../bench/lib/stats';
import { MemoryMemento, silentLog, tempDir } from './helpers';

const OUT = process.env.SWITCHBOARD_CHECKPOINTS_BENCH;
const FOLDER_FILES = 2000;
const RUNS = 5;

/** An agent's turn over 50 files: 30 edited, 10 created, 10 deleted. */
function agentTurn(dir: string, round: number): void {
  for (let i = 0; i < 30; i++) fs.appendFileSync(path.join(dir, `f${i}.ts`), `// round ${round}\n`);
  for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(dir, `new-${i}.ts`), `new in round ${round}\n`);
  for (let i = 30; i < 40; i++) fs.rmSync(path.join(dir, `f${i}.ts`));
}

describe('checkpoints host bench', function () {
  this.timeout(10 * 60_000);

  before(function () {
    if (!OUT) this.skip();
  });

  it('restores a 50-file checkpoint', async () => {
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-checkpoint-bench-'));
    const review = new DiffReview({ memento: new MemoryMemento(), log: silentLog, storageDir: storage });
    const dir = await tempDir();
    for (let i = 0; i < FOLDER_FILES; i++) fs.writeFileSync(path.join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(100));
    const trees = await review.checkpoints();
    assert.ok(trees);
    const begin = await trees.take([dir]);
    assert.ok(begin.snapshots, begin.problem);
    const planMs: number[] = [];
    const writeMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      agentTurn(dir, run);
      const end = await trees.take([dir]);
      const t0 = performance.now();
      const plan: CheckpointFilePlan[] = await trees.plan([{ begin: begin.snapshots, ...(end.snapshots ? { end: end.snapshots } : {}) }]);
      const t1 = performance.now();
      const outcome = await writeTargets(plan, 'Restore checkpoint');
      const t2 = performance.now();
      assert.strictEqual(plan.length, 50);
      assert.strictEqual(outcome.restored.length, 50, JSON.stringify(outcome.failed));
      planMs.push(t1 - t0);
      writeMs.push(t2 - t1);
    }
    fs.writeFileSync(OUT ?? '', JSON.stringify({ vscode: vscode.version, folderFiles: FOLDER_FILES, runs: RUNS, planMs: median(planMs), writeMs: median(writeMs), totalMs: median(planMs.map((p, i) => p + writeMs[i])) }, null, 2));
    review.dispose();
    fs.rmSync(storage, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
