// A turn's checkpoint: the turn may start (the prompt go to the agent) once the folders are snapshotted; keeping
// the snapshot and saving the message's entry follow, and the turn's end, the next turn and a closed session
// wait for them, so every entry is whole and in order however slow the store or Git is.
import * as assert from 'assert';
import type * as vscode from 'vscode';
import type { FolderSnapshot } from '../../../src/host/diff';
import type { CheckpointTrees } from '../../../src/host/diff/baseline/checkpointTrees';
import { CheckpointLedgers, type LedgerEntry } from '../../../src/host/session/checkpoints/checkpointLedgers';
import type { CheckpointsOptions } from '../../../src/host/session/checkpoints/checkpoints';
import type { Session } from '../../../src/host/session/session';
import type { ReviewTurn } from '../../../src/host/session/turn/turnFiles';

/** A promise and the function that resolves it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves after every callback already queued has run. */
const settle = () => new Promise((r) => setImmediate(r));

class Fixture {
  snapshotCount = 0;
  /** Each keep() waits for this gate; a test opens it. */
  keepGate = gate();
  keepFails = false;
  readonly saved: LedgerEntry[][] = [];
  readonly warnings: string[] = [];
  readonly ledgers: CheckpointLedgers;

  constructor() {
    const trees = {
      keep: async () => {
        await this.keepGate.promise;
        if (this.keepFails) throw new Error('update-ref failed');
      },
      take: () => Promise.resolve({ snapshots: this.snapshot() }),
      lastProblem: undefined,
    } as unknown as CheckpointTrees;
    const deps = {
      turnFiles: { begin: () => Promise.resolve(this.snapshot()) },
      diffReview: { checkpoints: () => Promise.resolve(trees) },
      store: {
        loadCheckpoints: () => Promise.resolve([]),
        saveCheckpoints: (_key: string, value: LedgerEntry[]) => {
          this.saved.push(structuredClone(value));
          return Promise.resolve();
        },
      },
      log: { warn: (m: string) => this.warnings.push(m) } as unknown as vscode.LogOutputChannel,
    } as unknown as CheckpointsOptions;
    this.ledgers = new CheckpointLedgers(deps);
  }

  snapshot(): FolderSnapshot[] {
    return [{ folder: '/w', tree: `tree-${++this.snapshotCount}` }];
  }

  /** A session whose last user message is `itemId`. */
  session(itemId: string): Session {
    return { key: 'tab-1', transcript: { items: [{ kind: 'user_message', id: itemId }] }, settled: () => Promise.resolve() } as unknown as Session;
  }

  get last(): LedgerEntry[] | undefined {
    return this.saved.at(-1);
  }
}

const TURN = { folders: ['/w'] } as unknown as ReviewTurn;

describe('host: a turn’s checkpoint is kept and saved while the agent works', () => {
  it('begin resolves once the folders are snapshotted, before the entry is kept and saved; the turn’s end waits for it and completes the same entry', async () => {
    const f = new Fixture();
    const session = f.session('m1');
    await f.ledgers.begin(session, TURN);
    assert.strictEqual(f.saved.length, 0, 'nothing saved while the snapshot is being kept');

    let ended = false;
    const end = f.ledgers.end(session, TURN).then(() => (ended = true));
    await settle();
    assert.strictEqual(ended, false, 'the end waits for the entry');

    f.keepGate.open();
    await end;
    assert.deepStrictEqual(f.last, [{ itemId: 'm1', begin: [{ folder: '/w', tree: 'tree-1' }], end: [{ folder: '/w', tree: 'tree-2' }] }]);
  });

  it('the next turn’s entry follows the one before it, in order', async () => {
    const f = new Fixture();
    await f.ledgers.begin(f.session('m1'), TURN);
    await f.ledgers.begin(f.session('m2'), TURN);
    f.keepGate.open();
    await f.ledgers.end(f.session('m2'), TURN);
    assert.deepStrictEqual(
      f.last?.map((e) => [e.itemId, e.begin?.[0].tree, e.end?.[0].tree]),
      [
        ['m1', 'tree-1', undefined],
        ['m2', 'tree-2', 'tree-3'],
      ],
    );
  });

  it('a snapshot that cannot be kept: the turn still starts and ends, the failure is logged, nothing rejects', async () => {
    const f = new Fixture();
    f.keepFails = true;
    f.keepGate.open();
    await f.ledgers.begin(f.session('m1'), TURN);
    await f.ledgers.end(f.session('m1'), TURN);
    assert.strictEqual(f.saved.length, 0);
    assert.match(f.warnings.join('\n'), /could not record the checkpoint of tab-1: update-ref failed/);
  });
});
