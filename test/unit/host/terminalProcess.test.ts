import * as assert from 'assert';
import * as os from 'node:os';
import { isProcessAlive } from '../../../src/agents/processTree';
import { TerminalProcess, needsShell, type ExitStatus } from '../../../src/host/terminal/terminalProcess';

function run(command: string, args: string[], env: Record<string, string> = {}) {
  let out = '';
  let exits = 0;
  const p = new TerminalProcess({ command, args, env, cwd: os.tmpdir() }, { onText: (t) => (out += t), onExit: () => exits++ });
  p.start();
  return { p, output: () => out, exits: () => exits };
}

/** Zombies count as gone: an orphan waits for a reaper (slow in some containers) but runs nothing. */
const alive = (pid: number): boolean => isProcessAlive(pid);

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('host: terminal process', () => {
  it('runs node -e with args and env, merges stdout and stderr, reports the exit code', async () => {
    const r = run(process.execPath, ['-e', 'console.log(process.argv[1], process.env.SB_X); console.error("err"); process.exit(3)', 'arg1'], { SB_X: 'envval' });
    const status = await r.p.waitForExit();
    assert.deepStrictEqual(status, { exitCode: 3, signal: null });
    assert.match(r.output(), /arg1 envval\n/);
    assert.match(r.output(), /err\n/);
    assert.strictEqual(r.exits(), 1);
  });

  it('a command that does not exist exits 127 with a message, not an exception', async () => {
    const r = run('definitely-not-a-command-sb', ['x']);
    assert.deepStrictEqual(await r.p.waitForExit(), { exitCode: 127, signal: null });
    assert.match(r.output(), /definitely-not-a-command-sb: command not found/);
  });

  it('a whole command line without args goes through a shell (127 from the shell too)', async () => {
    assert.ok(needsShell('echo a && echo b', []));
    assert.ok(!needsShell('ls', []));
    assert.ok(!needsShell('echo', ['a b']));
    const r = run('echo one && echo two', []);
    await r.p.waitForExit();
    assert.strictEqual(r.output(), 'one\ntwo\n');
    const missing = run('nope-sb-cmd --flag', []);
    assert.strictEqual((await missing.p.waitForExit()).exitCode, 127);
  });

  /** A node child that starts a grandchild (in its own process group when `detached`) and prints both pids. */
  async function startTree(detached: boolean): Promise<{ r: ReturnType<typeof run>; child: number; grandchild: number }> {
    const script = `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(()=>{},1000)'], { stdio: 'ignore', detached: ${detached} });
      console.log('child ' + process.pid + ' grandchild ' + c.pid); setInterval(() => {}, 1000);`;
    const r = run(process.execPath, ['-e', script]);
    await until(() => /grandchild \d+/.test(r.output()));
    const [, child, grandchild] = /child (\d+) grandchild (\d+)/.exec(r.output())?.map(Number) ?? [];
    assert.ok(alive(child) && alive(grandchild));
    return { r, child, grandchild };
  }

  it('kill ends the whole tree: the child and the grandchild it spawned', async function () {
    if (process.platform === 'win32') this.skip();
    const { r, child, grandchild } = await startTree(false);
    r.p.kill();
    const status: ExitStatus = await r.p.waitForExit();
    assert.strictEqual(status.signal, 'SIGTERM');
    await until(() => !alive(grandchild) && !alive(child));
  });

  it('kill also ends a grandchild that left the process group (found by walking the tree)', async function () {
    if (process.platform === 'win32') this.skip();
    const { r, child, grandchild } = await startTree(true);
    try {
      r.p.kill();
      assert.strictEqual((await r.p.waitForExit()).signal, 'SIGTERM');
      await until(() => !alive(grandchild) && !alive(child));
    } finally {
      if (alive(grandchild)) process.kill(grandchild, 'SIGKILL');
    }
  });

  it('binary output decodes without throwing', async () => {
    const r = run(process.execPath, ['-e', 'process.stdout.write(Buffer.from([0,1,2,0xff,0xfe,0x1b,0x5b,0x80,10]))']);
    assert.strictEqual((await r.p.waitForExit()).exitCode, 0);
    assert.ok(r.output().includes('\uFFFD'));
  });
});
