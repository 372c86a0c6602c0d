import * as assert from 'assert';
import * as os from 'node:os';
import { TerminalProcess, needsShell, type ExitStatus } from '../../../src/host/terminal/terminalProcess';

function run(command: string, args: string[], env: Record<string, string> = {}) {
  let out = '';
  let exits = 0;
  const p = new TerminalProcess({ command, args, env, cwd: os.tmpdir() }, { onText: (t) => (out += t), onExit: () => exits++ });
  p.start();
  return { p, output: () => out, exits: () => exits };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

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

  it('kill ends the whole tree: the child and the grandchild it spawned', async function () {
    if (process.platform === 'win32') this.skip();
    const script = `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(()=>{},1000)'], { stdio: 'ignore' });
      console.log('grandchild ' + c.pid); setInterval(() => {}, 1000);`;
    const r = run(process.execPath, ['-e', script]);
    await until(() => /grandchild \d+/.test(r.output()));
    const grandchild = Number(/grandchild (\d+)/.exec(r.output())?.[1]);
    const child = r.p.pid ?? 0;
    assert.ok(alive(child) && alive(grandchild));
    r.p.kill();
    const status: ExitStatus = await r.p.waitForExit();
    assert.strictEqual(status.signal, 'SIGTERM');
    await until(() => !alive(grandchild) && !alive(child));
  });

  it('binary output decodes without throwing', async () => {
    const r = run(process.execPath, ['-e', 'process.stdout.write(Buffer.from([0,1,2,0xff,0xfe,0x1b,0x5b,0x80,10]))']);
    assert.strictEqual((await r.p.waitForExit()).exitCode, 0);
    assert.ok(r.output().includes('\uFFFD'));
  });
});
