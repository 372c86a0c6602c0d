import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { readLoginShellEnvironment, shellArguments, shellQuote } from '../../../src/agents/shellEnvironment';
import { LoginShellEnvironmentCache } from '../../../src/agents/shellEnvironmentCache';
import { pidExists, RecordingLogger, tempDir, waitUntil, writeExecutable } from './helpers';

const posixOnly = process.platform === 'win32' ? describe.skip : describe;

posixOnly('shellEnvironment: reading the login shell PATH', function () {
  this.timeout(20_000);
  let home: string;

  beforeEach(() => {
    home = tempDir('home');
  });

  it('reads PATH from a real bash login shell, ignoring what rc files print around it', async function () {
    if (!fs.existsSync('/bin/bash')) this.skip();
    // What nvm does, plus the noise real rc files make on stdout.
    fs.writeFileSync(
      path.join(home, '.bash_profile'),
      'echo "Welcome back!"\nexport PATH="$HOME/.nvm/versions/node/v20/bin:$PATH"\nexport FROM_PROFILE=yes\ntrap \'echo "logout noise"\' EXIT\n',
    );
    const logger = new RecordingLogger();
    const result = await readLoginShellEnvironment({
      shell: '/bin/bash',
      baseEnv: { HOME: home, PATH: '/usr/bin:/bin', TERM: 'dumb' },
      logger,
    });
    assert.strictEqual(result.source, 'login-shell', result.reason);
    // /etc/profile may rebuild the rest of PATH; the profile's entry must come first.
    assert.ok(result.env.PATH?.startsWith(`${home}/.nvm/versions/node/v20/bin:`), result.env.PATH);
    assert.strictEqual(result.env.FROM_PROFILE, 'yes');
    assert.strictEqual(result.env.HOME, home);
    for (const probeVariable of ['ELECTRON_RUN_AS_NODE', 'ELECTRON_NO_ATTACH_CONSOLE', 'VSCODE_RESOLVING_ENVIRONMENT']) {
      assert.ok(!(probeVariable in result.env), `${probeVariable} leaked into the agent environment`);
    }
    assert.ok(logger.messages('info').some((line) => line.includes(`PATH=${result.env.PATH}`)));
  });

  it('tells rc files it is resolving (VSCODE_RESOLVING_ENVIRONMENT) and keeps values with newlines intact', async () => {
    const shell = writeExecutable(
      path.join(home, 'fake-shell'),
      '#!/bin/sh\n[ "$VSCODE_RESOLVING_ENVIRONMENT" = 1 ] && export SAW_FLAG=1\nexport MULTI="line one\nline two"\nshift 3\nexec /bin/sh -c "$1"\n',
    );
    const result = await readLoginShellEnvironment({ shell, baseEnv: { PATH: '/usr/bin:/bin' } });
    assert.strictEqual(result.source, 'login-shell', result.reason);
    assert.strictEqual(result.env.SAW_FLAG, '1');
    assert.strictEqual(result.env.MULTI, 'line one\nline two');
  });

  it('falls back to the process environment after the timeout, and ends the hung shell and its children', async () => {
    const pidFile = path.join(home, 'pids');
    const shell = writeExecutable(path.join(home, 'slow-shell'), `#!/bin/sh\necho $$ > "${pidFile}"\nsleep 30 &\necho $! >> "${pidFile}"\nwait\n`);
    const logger = new RecordingLogger();
    const baseEnv = { PATH: '/usr/bin:/bin', MARK: 'process-env' };
    const result = await readLoginShellEnvironment({ shell, timeoutMs: 500, baseEnv, logger });
    assert.deepStrictEqual(result, { env: baseEnv, source: 'process', reason: `${shell} took longer than 500 ms` });
    assert.match(logger.messages('warn')[0], /Could not read the login shell environment \(.*took longer than 500 ms\); agents get VS Code's own PATH\./);
    const pids = fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    assert.strictEqual(pids.length, 2);
    assert.ok(await waitUntil(() => pids.every((pid) => !pidExists(pid)), 5000), 'the hung shell or its sleep survived');
  });

  it('falls back when the shell fails, quoting the end of its stderr', async () => {
    const shell = writeExecutable(path.join(home, 'broken-shell'), '#!/bin/sh\necho "zsh: command not found: nvm" >&2\nexit 1\n');
    const result = await readLoginShellEnvironment({ shell, baseEnv: { PATH: '/usr/bin' } });
    assert.strictEqual(result.source, 'process');
    assert.strictEqual(result.reason, `${shell} exited with code 1 without printing its environment: zsh: command not found: nvm`);
    assert.deepStrictEqual(result.env, { PATH: '/usr/bin' });
  });

  it('falls back when the shell does not exist', async () => {
    const result = await readLoginShellEnvironment({ shell: path.join(home, 'no-such-shell'), baseEnv: { PATH: '/usr/bin' } });
    assert.strictEqual(result.source, 'process');
    assert.match(result.reason ?? '', /could not be started: spawn .*no-such-shell ENOENT/);
  });

  it('uses the process environment on Windows without running anything', async () => {
    const result = await readLoginShellEnvironment({ platform: 'win32', shell: '/definitely/not/run', baseEnv: { Path: 'C:\\x' } });
    assert.deepStrictEqual(result.env, { Path: 'C:\\x' });
    assert.strictEqual(result.source, 'process');
  });

  it('the cache runs the shell once for concurrent and later callers', async () => {
    const counter = path.join(home, 'runs');
    const shell = writeExecutable(path.join(home, 'counting-shell'), `#!/bin/sh\necho run >> "${counter}"\nshift 3\nexec /bin/sh -c "$1"\n`);
    const cache = new LoginShellEnvironmentCache({ shell, baseEnv: { PATH: '/usr/bin:/bin' } });
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    assert.strictEqual(a, b);
    assert.strictEqual(await cache.get(), a);
    assert.strictEqual(fs.readFileSync(counter, 'utf8'), 'run\n');
  });
});

describe('shellEnvironment: shell arguments and quoting', () => {
  it('uses -i -l -c for sh-like shells and fish, -ic for csh/tcsh', () => {
    assert.deepStrictEqual(shellArguments('/bin/zsh', 'cmd'), ['-i', '-l', '-c', 'cmd']);
    assert.deepStrictEqual(shellArguments('/usr/local/bin/fish', 'cmd'), ['-i', '-l', '-c', 'cmd']);
    assert.deepStrictEqual(shellArguments('/bin/tcsh', 'cmd'), ['-ic', 'cmd']);
    assert.deepStrictEqual(shellArguments('/opt/homebrew/bin/nu', 'cmd'), ['-l', '-i', '-c', 'cmd']);
  });

  it('shellQuote survives a round trip through /bin/sh, including quotes and $', function () {
    if (process.platform === 'win32') this.skip();
    const nasty = `/Applications/It's "Code".app/$HOME/\`x\`/a b`;
    assert.strictEqual(execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(nasty)}`], { encoding: 'utf8' }), nasty);
  });
});
