import * as assert from 'assert';
import { spawn } from 'child_process';
import { descendantsOf, isProcessAlive, killProcessTree, listDescendants, signalProcessTrees, type ProcessEntry } from '../../../src/agents/processTree';
import { fixture, killQuietly, nextLine, pidExists, waitUntil } from './helpers';

const posixOnly = process.platform === 'win32' ? describe.skip : describe;

describe('processTree: descendantsOf', () => {
  const entry = (pid: number, ppid: number): ProcessEntry => ({ pid, ppid, pgid: pid, startTime: undefined });

  it('walks children, grandchildren and deeper, breadth first, excluding the root', () => {
    const processes = [entry(1, 0), entry(10, 1), entry(11, 10), entry(12, 10), entry(13, 11), entry(20, 1)];
    assert.deepStrictEqual(descendantsOf([10], processes).map((p) => p.pid), [11, 12, 13]);
    assert.deepStrictEqual(descendantsOf([10, 20], processes).map((p) => p.pid), [11, 12, 13]);
    assert.deepStrictEqual(descendantsOf([99], processes), []);
  });

  it('terminates on a parent cycle (pid reuse can make /proc snapshots inconsistent)', () => {
    assert.deepStrictEqual(descendantsOf([5], [entry(5, 6), entry(6, 5)]).map((p) => p.pid), [6]);
  });
});

posixOnly('processTree: live processes', function () {
  this.timeout(20_000);
  const stray: number[] = [];
  afterEach(() => killQuietly(stray.splice(0)));

  async function spawnTree(flags: string[]): Promise<{ root: number; grandchild: number }> {
    const child = spawn(process.execPath, [fixture('treeAgent.js'), ...flags], { stdio: ['pipe', 'pipe', 'ignore'] });
    const report = JSON.parse(await nextLine(child.stdout, (line) => line.startsWith('{'))) as { pid: number; grandchild: number };
    stray.push(report.pid, report.grandchild);
    return { root: report.pid, grandchild: report.grandchild };
  }

  it('lists the grandchild of a process, also when it started a new session', async () => {
    const { root, grandchild } = await spawnTree(['--grandchild-new-session']);
    const descendants = await listDescendants(root);
    assert.deepStrictEqual(descendants.map((p) => p.pid), [grandchild]);
    assert.strictEqual(descendants[0].ppid, root);
    assert.strictEqual(descendants[0].pgid, grandchild, 'setsid makes the grandchild its own group leader');
  });

  it('killProcessTree ends the root and every descendant (for terminals), even SIGTERM-proof ones with SIGKILL', async () => {
    const { root, grandchild } = await spawnTree(['--ignore-sigterm', '--grandchild-ignores-sigterm']);
    const signalled = await killProcessTree(root, 'SIGTERM');
    assert.deepStrictEqual([...signalled].sort(), [root, grandchild].sort());
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(pidExists(root) && pidExists(grandchild), 'both ignore SIGTERM');
    await killProcessTree(root, 'SIGKILL');
    assert.ok(await waitUntil(() => !pidExists(root) && !pidExists(grandchild), 5000));
  });

  it('a tree whose root is already gone is a no-op, not an error', async () => {
    assert.deepStrictEqual(await killProcessTree(2 ** 22 + 12345, 'SIGTERM'), []);
  });

  it('isProcessAlive agrees with kill(pid, 0) for live and missing processes', async () => {
    const { root } = await spawnTree([]);
    assert.strictEqual(isProcessAlive(process.pid), true);
    assert.strictEqual(isProcessAlive(root), true);
    assert.strictEqual(isProcessAlive(2 ** 22 + 12345), false);
  });

  (process.platform === 'linux' ? it : it.skip)('signalProcessTrees with an envTag signals the processes that inherited it, and only those', async () => {
    const tag = { name: 'SWITCHBOARD_TEST_TAG', value: `run-${process.pid}-${Date.now()}` };
    const tagged = spawn(process.execPath, [fixture('treeAgent.js'), '--grandchild-new-session'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, [tag.name]: tag.value } });
    const report = JSON.parse(await nextLine(tagged.stdout, (line) => line.startsWith('{'))) as { pid: number; grandchild: number };
    stray.push(report.pid, report.grandchild);
    const other = await spawnTree([]);
    assert.deepStrictEqual(await signalProcessTrees('SIGKILL', { envTag: { name: tag.name, value: `${tag.value}-other` } }), [], 'another value matches nothing');
    const signalled = await signalProcessTrees('SIGKILL', { envTag: tag });
    assert.deepStrictEqual([...signalled].sort(), [report.pid, report.grandchild].sort());
    assert.ok(await waitUntil(() => !pidExists(report.pid) && !pidExists(report.grandchild), 5000));
    assert.ok(pidExists(other.root) && pidExists(other.grandchild), 'an untagged tree is left alone');
  });
});
