import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { buildAgentEnvironment, describeAgentExit, startAgentProcess, type AgentProcess, type AgentProcessOptions } from '../../../src/agents/agentProcess';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import { mergeWithPresets } from '../../../src/agents/agentSettings';
import { AgentSpawnError, CommandNotFoundError } from '../../../src/agents/agentStartErrors';
import { listDescendants, listProcesses } from '../../../src/agents/processTree';
import { fixture, killQuietly, LineReader, nextLine, pidExists, RecordingLogger, tempDir, waitUntil, writeExecutable } from './helpers';

const posixOnly = process.platform === 'win32' ? describe.skip : describe;
/*
 * Graceful tests wait up to 10 s for the clean exit (they end as soon as it happens, so a long wait
 * costs nothing and a loaded machine cannot turn a clean exit into a SIGTERM); escalation tests use
 * short waits, which only bound how soon the signal comes.
 */
const GRACEFUL = { stdinCloseMs: 10_000, terminateMs: 10_000 };
const FAST_STOP = { stdinCloseMs: 400, terminateMs: 400 };

function nodeAgent(name: string, script: string, args: string[] = [], env: Record<string, string> = {}): AgentDefinition {
  return { name, command: process.execPath, args: [fixture(script), ...args], env };
}

posixOnly('agentProcess', function () {
  this.timeout(40_000);
  const started: AgentProcess[] = [];
  const strayPids: number[] = [];
  let cwd: string;

  async function start(options: Partial<AgentProcessOptions> & { definition: AgentDefinition }): Promise<AgentProcess> {
    const agent = await startAgentProcess({ cwd, stopTimeouts: GRACEFUL, ...options });
    started.push(agent);
    return agent;
  }

  /** Starts treeAgent and waits for it to report its grandchild. */
  async function startTree(
    flags: string[],
    stopTimeouts: AgentProcessOptions['stopTimeouts'] = GRACEFUL,
  ): Promise<{ agent: AgentProcess; grandchild: number; logger: RecordingLogger }> {
    const logger = new RecordingLogger();
    const agent = await start({ definition: nodeAgent('Tree Agent', 'treeAgent.js', flags), logger, stopTimeouts });
    const report = JSON.parse(await nextLine(agent.stdout, (line) => line.startsWith('{'))) as { pid: number; grandchild: number };
    strayPids.push(report.grandchild);
    assert.strictEqual(report.pid, agent.pid);
    assert.ok(pidExists(report.grandchild), 'grandchild should be running before stop');
    return { agent, grandchild: report.grandchild, logger };
  }

  beforeEach(() => {
    cwd = tempDir('agent-cwd');
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((agent) => agent.stop({ stdinCloseMs: 0, terminateMs: 100 })));
    killQuietly(strayPids.splice(0));
  });

  it('exposes stdin and stdout for the protocol layer', async () => {
    const agent = await start({ definition: nodeAgent('Echo', 'echoAgent.js') });
    const reader = new LineReader(agent.stdout);
    await reader.next((line) => line === 'ready');
    agent.stdin.write('{"jsonrpc":"2.0","id":0,"method":"initialize"}\n');
    assert.strictEqual(await reader.next(), 'echo:{"jsonrpc":"2.0","id":0,"method":"initialize"}');
    assert.ok(agent.running);
    assert.match(agent.commandLine, /echoAgent\.js$/);
  });

  it('runs in the given cwd with env = base env + login PATH + definition env + secrets', async () => {
    const agent = await start({
      definition: nodeAgent('Echo', 'echoAgent.js', ['--print-env', 'FROM_BASE,OVERRIDDEN,SECRET,PATH', '--print-cwd'], {
        OVERRIDDEN: 'from-definition',
        SECRET: 'from-definition',
      }),
      baseEnv: { FROM_BASE: 'base', OVERRIDDEN: 'base', PATH: '/usr/bin:/bin' },
      loginShellPath: '/home/me/.nvm/versions/node/v20/bin:/usr/bin:/bin',
      secretEnv: { SECRET: 'from-secret-storage' },
    });
    const reader = new LineReader(agent.stdout);
    const lines: string[] = [];
    for (let i = 0; i < 5; i++) lines.push(await reader.next());
    assert.deepStrictEqual(lines, [
      'FROM_BASE=base',
      'OVERRIDDEN=from-definition',
      'SECRET=from-secret-storage',
      'PATH=/home/me/.nvm/versions/node/v20/bin:/usr/bin:/bin',
      `cwd=${fs.realpathSync(cwd)}`,
    ]);
  });

  it('keeps only the last N stderr lines and forwards every line to the logger', async () => {
    const logger = new RecordingLogger();
    const agent = await start({ definition: nodeAgent('Echo', 'echoAgent.js', ['--stderr-lines', '250', '--exit-code', '7']), logger, stderrLineLimit: 10 });
    await nextLine(agent.stdout, (line) => line === 'ready');
    const exit = await agent.stop();
    assert.deepStrictEqual(exit, {
      code: 7,
      signal: null,
      requested: true,
      stderrTail: [...Array.from({ length: 9 }, (_, i) => `stderr line ${242 + i}`), 'stdin closed, exiting'],
    });
    assert.deepStrictEqual(agent.stderrTail(), exit.stderrTail);
    const forwarded = logger.messages('info').filter((line) => line.startsWith('stderr line'));
    assert.strictEqual(forwarded.length, 250);
    assert.strictEqual(forwarded[0], 'stderr line 1');
    assert.ok(logger.messages('info').includes('Echo exited with code 7'));
    assert.ok(!logger.messages().some((line) => line.includes('SIGTERM')), 'a clean exit on stdin close needs no signal');
  });

  it('reports a crash through exited and onDidExit, with the last stderr lines', async () => {
    const agent = await start({ definition: nodeAgent('Crashy', 'echoAgent.js', ['--crash-after-ms', '100']) });
    const viaEvent = new Promise((resolve) => agent.onDidExit(resolve));
    const exit = await agent.exited;
    assert.strictEqual(exit.code, 3);
    assert.strictEqual(exit.signal, null);
    assert.strictEqual(exit.requested, false);
    assert.deepStrictEqual(exit.stderrTail, ['fatal: something went wrong']);
    assert.strictEqual(await viaEvent, exit);
    assert.strictEqual(agent.running, false);
    // A listener added after the exit still hears about it.
    assert.strictEqual(await new Promise((resolve) => agent.onDidExit(resolve)), exit);
  });

  it('does not throw when the protocol layer writes to a dead agent', async () => {
    const agent = await start({ definition: nodeAgent('Crashy', 'echoAgent.js', ['--crash-after-ms', '50']) });
    await agent.exited;
    // Node destroys the pipe on exit: the write fails through its callback, not as an uncaught error.
    const writeError = await new Promise<Error | null | undefined>((resolve) => {
      agent.stdin.write('{"jsonrpc":"2.0","id":1,"method":"session/prompt"}\n', resolve);
    });
    assert.ok(writeError instanceof Error);
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('stop is idempotent and works after the agent has exited', async () => {
    const agent = await start({ definition: nodeAgent('Echo', 'echoAgent.js') });
    await nextLine(agent.stdout, (line) => line === 'ready');
    const first = agent.stop();
    assert.strictEqual(agent.stop(), first);
    const exit = await first;
    assert.strictEqual(exit.code, 0);
    assert.strictEqual((await agent.stop()).code, 0);
  });

  describe('stopping the process tree', () => {
    it('closes stdin first: a tidy agent exits by itself and nothing is signalled', async () => {
      const { agent, grandchild, logger } = await startTree([]);
      const exit = await agent.stop();
      assert.deepStrictEqual([exit.code, exit.signal, exit.requested], [0, null, true]);
      assert.ok(!pidExists(agent.pid));
      assert.ok(!pidExists(grandchild));
      assert.ok(!logger.messages().some((line) => line.includes('SIGTERM')));
    });

    it('sends SIGTERM to the whole tree when the agent ignores stdin close', async () => {
      const { agent, grandchild, logger } = await startTree(['--ignore-stdin-close']);
      const exit = await agent.stop(FAST_STOP);
      assert.strictEqual(exit.signal, 'SIGTERM');
      assert.ok(!pidExists(agent.pid), 'agent still running');
      assert.ok(!pidExists(grandchild), 'grandchild still running');
      assert.ok(logger.messages().some((line) => /did not exit 400 ms after its input was closed; sending SIGTERM/.test(line)));
    });

    it('still signals the tree when the logger throws (an output channel VS Code closed during deactivate)', async () => {
      const closed = () => {
        throw new Error('Channel has been closed');
      };
      const agent = await start({ definition: nodeAgent('Tree Agent', 'treeAgent.js', ['--ignore-stdin-close']), logger: { info: closed, warn: closed, error: closed } });
      const report = JSON.parse(await nextLine(agent.stdout, (line) => line.startsWith('{'))) as { pid: number; grandchild: number };
      strayPids.push(report.grandchild);
      const exit = await agent.stop(FAST_STOP);
      assert.strictEqual(exit.signal, 'SIGTERM');
      assert.ok(!pidExists(agent.pid), 'agent still running');
      assert.ok(!pidExists(report.grandchild), 'grandchild still running');
    });

    it('SIGKILLs the tree when the agent and its grandchild ignore SIGTERM', async () => {
      const { agent, grandchild, logger } = await startTree(['--ignore-stdin-close', '--ignore-sigterm', '--grandchild-ignores-sigterm']);
      const exit = await agent.stop(FAST_STOP);
      assert.strictEqual(exit.signal, 'SIGKILL');
      assert.ok(!pidExists(agent.pid), 'agent still running');
      assert.ok(!pidExists(grandchild), 'grandchild still running');
      assert.ok(logger.messages('warn').some((line) => /did not exit 400 ms after SIGTERM; killing its process tree/.test(line)));
    });

    it('finds a grandchild that left the process group (setsid) by walking the tree', async () => {
      const { agent, grandchild } = await startTree(['--ignore-stdin-close', '--ignore-sigterm', '--grandchild-new-session', '--grandchild-ignores-sigterm']);
      await agent.stop(FAST_STOP);
      assert.ok(!pidExists(agent.pid));
      assert.ok(!pidExists(grandchild), 'grandchild in its own session survived');
    });

    it('ends what the agent left behind when it exits on stdin close (the npx-wrapper orphan)', async () => {
      const { agent, grandchild, logger } = await startTree(['--exit-on-stdin-close', '--grandchild-new-session', '--grandchild-ignores-sigterm']);
      // Short wait for the leftovers' SIGTERM -> SIGKILL, long wait for the agent's own clean exit.
      const exit = await agent.stop({ stdinCloseMs: 10_000, terminateMs: 400 });
      assert.deepStrictEqual([exit.code, exit.signal], [0, null]);
      assert.ok(!pidExists(grandchild), 'orphaned grandchild survived stop()');
      assert.ok(logger.messages().some((line) => line.includes(`leftover process(es) of the agent: ${grandchild}`)));
    });

    it('ends the orphans of an agent that crashed (same process group)', async () => {
      const { agent, grandchild } = await startTree(['--grandchild-ignores-sigterm'], FAST_STOP);
      process.kill(agent.pid, 'SIGKILL'); // the wrapper dies; the real agent would keep running
      const exit = await agent.exited;
      assert.deepStrictEqual([exit.signal, exit.requested], ['SIGKILL', false]);
      assert.ok(await waitUntil(() => !pidExists(grandchild), 5000), 'orphan of a crashed agent survived');
    });
  });

  describe('a daemon the agent detached from its tree and group (Cline\'s hub daemon)', () => {
    const linuxOnly = process.platform === 'linux' ? it : it.skip;

    /** Starts daemonAgent and waits until its daemon runs outside its tree and process group. */
    async function startDaemonAgent(flags: string[] = [], stopTimeouts: AgentProcessOptions['stopTimeouts'] = FAST_STOP) {
      const logger = new RecordingLogger();
      const agent = await start({ definition: nodeAgent('Daemon Agent', 'daemonAgent.js', flags), logger, stopTimeouts });
      const report = JSON.parse(await nextLine(agent.stdout, (line) => line.startsWith('{'))) as { pid: number; daemon: number };
      strayPids.push(report.daemon);
      assert.ok(pidExists(report.daemon), 'the daemon runs');
      const tree = await listDescendants(agent.pid);
      assert.ok(!tree.some((p) => p.pid === report.daemon), 'the daemon is no longer a descendant of the agent');
      const daemonGroup = (await listProcesses()).find((p) => p.pid === report.daemon)?.pgid;
      assert.ok(daemonGroup !== undefined && daemonGroup !== agent.pid, 'the daemon is in a group of its own');
      return { agent, daemon: report.daemon, logger };
    }

    linuxOnly('stop() ends it, with SIGKILL after the SIGTERM it ignores', async () => {
      const { agent, daemon, logger } = await startDaemonAgent();
      await agent.stop();
      assert.ok(!pidExists(agent.pid), 'agent still running');
      assert.ok(!pidExists(daemon), 'the detached daemon survived stop()');
      assert.ok(logger.messages().some((line) => line.includes(`leftover process(es) of the agent: ${daemon}`)), logger.messages().join('\n'));
    });

    linuxOnly('it is ended when the agent exits on its own, too', async () => {
      const { agent, daemon } = await startDaemonAgent(['--exit-soon']);
      const exit = await agent.exited;
      assert.strictEqual(exit.requested, false);
      assert.ok(await waitUntil(() => !pidExists(daemon), 10_000), 'the daemon of an agent that quit survived');
    });

    linuxOnly('stopping one agent leaves another run\'s daemon alone', async () => {
      const first = await startDaemonAgent();
      const second = await startDaemonAgent();
      await first.agent.stop();
      assert.ok(!pidExists(first.daemon), 'its own daemon is ended');
      assert.ok(pidExists(second.daemon), 'the other run\'s daemon is not');
      assert.ok(pidExists(second.agent.pid), 'nor the other agent');
      await second.agent.stop();
      assert.ok(!pidExists(second.daemon));
    });
  });

  describe('start failures are typed errors, never unhandled', () => {
    it('a command missing from PATH -> CommandNotFoundError with the install hint', async () => {
      const emptyBin = tempDir('empty-bin');
      // As the host calls it: a merged preset entry (carrying its install hint) and the cached shell env.
      const gemini = mergeWithPresets([]).find((agent) => agent.name === 'Gemini CLI');
      assert.ok(gemini);
      const error = await startAgentProcess({
        definition: gemini,
        cwd,
        baseEnv: { PATH: '/usr/bin' },
        loginShellEnvironment: { env: { PATH: emptyBin }, source: 'login-shell' },
      }).then(
        () => assert.fail('expected a CommandNotFoundError'),
        (reason: unknown) => reason,
      );
      assert.ok(error instanceof CommandNotFoundError);
      assert.deepStrictEqual(error.searched, [emptyBin], 'the login PATH replaces the inherited PATH');
      assert.strictEqual(
        error.message,
        'Cannot start Gemini CLI: the command "gemini" was not found on PATH (1 folder searched). Install Gemini CLI with: npm install -g @google/gemini-cli. ' +
          'If it is installed somewhere else, set "command" to its absolute path in the "switchboard.agents" setting.',
      );
    });

    it('a command found through the definition env PATH starts', async () => {
      const bin = tempDir('agent-bin');
      writeExecutable(path.join(bin, 'my-agent'), `#!/bin/sh\nexec "${process.execPath}" "${fixture('echoAgent.js')}"\n`);
      const agent = await start({ definition: { name: 'Mine', command: 'my-agent', args: [], env: { PATH: `${bin}:/usr/bin:/bin` } }, baseEnv: { PATH: '/nowhere' } });
      assert.strictEqual(await nextLine(agent.stdout), 'ready');
    });

    it('a script whose interpreter is missing -> AgentSpawnError ENOENT', async () => {
      const script = writeExecutable(path.join(tempDir('bad-shebang'), 'agent'), '#!/nonexistent/interpreter\n');
      const error = await startAgentProcess({ definition: { name: 'Broken', command: script, args: [], env: {} }, cwd }).then(
        () => assert.fail('expected an AgentSpawnError'),
        (reason: unknown) => reason,
      );
      assert.ok(error instanceof AgentSpawnError);
      assert.strictEqual(error.code, 'ENOENT');
      assert.match(error.message, /^Cannot start Broken: ".*agent" or its working folder does not exist \(or its script interpreter is missing\)\.$/);
    });

    it('a missing working folder -> AgentSpawnError, not an unhandled error event', async () => {
      const error = await startAgentProcess({ definition: nodeAgent('Echo', 'echoAgent.js'), cwd: path.join(cwd, 'does-not-exist') }).then(
        () => assert.fail('expected an AgentSpawnError'),
        (reason: unknown) => reason,
      );
      assert.ok(error instanceof AgentSpawnError);
      assert.strictEqual(error.code, 'ENOENT');
    });

    it('a file without the executable bit -> CommandNotFoundError naming the path', async () => {
      const file = writeExecutable(path.join(tempDir('noexec'), 'agent'), '#!/bin/sh\n', 0o644);
      await assert.rejects(
        startAgentProcess({ definition: { name: 'NoExec', command: file, args: [], env: {} }, cwd }),
        (error: unknown) =>
          error instanceof CommandNotFoundError &&
          error.message === `Cannot start NoExec: "${file}" does not exist or is not an executable file. Check "command" in the "switchboard.agents" setting.`,
      );
    });

    it('explains EACCES', () => {
      const error = new AgentSpawnError('Mine', '/opt/agent', 'EACCES', new Error('spawn /opt/agent EACCES'));
      assert.match(error.message, /^Cannot start Mine: "\/opt\/agent" is not executable \(permission denied\)/);
      assert.strictEqual((error.cause as Error).message, 'spawn /opt/agent EACCES');
    });
  });
});

describe('agentProcess: environment and exit descriptions', () => {
  const definition: AgentDefinition = { name: 'A', command: 'a', args: [], env: { Path: 'C:\\from-definition', API_URL: 'https://x' } };

  it('Windows: PATH and Path are one variable; the last layer wins without duplicates', () => {
    const env = buildAgentEnvironment({ definition, baseEnv: { Path: 'C:\\base', OTHER: '1' }, loginShellPath: 'C:\\login', secretEnv: { api_url: 'secret' } }, 'win32');
    assert.deepStrictEqual(env, { Path: 'C:\\from-definition', OTHER: '1', API_URL: 'secret' });
  });

  it('POSIX: names are case-sensitive and undefined base values are dropped', () => {
    const env = buildAgentEnvironment({ definition: { ...definition, env: { PATH: '/def' } }, baseEnv: { PATH: '/base', path: 'lower', GONE: undefined }, loginShellPath: '/login' }, 'linux');
    assert.deepStrictEqual(env, { PATH: '/def', path: 'lower' });
  });

  it('takes PATH from a login-shell environment result, but not from a fallback one', () => {
    const base = { PATH: '/base' };
    const fromShell = buildAgentEnvironment({ definition: { ...definition, env: {} }, baseEnv: base, loginShellEnvironment: { env: { PATH: '/nvm:/base', FOO: 'x' }, source: 'login-shell' } }, 'linux');
    assert.deepStrictEqual(fromShell, { PATH: '/nvm:/base' });
    const fallback = buildAgentEnvironment({ definition: { ...definition, env: {} }, baseEnv: base, loginShellEnvironment: { env: { PATH: '/other' }, source: 'process', reason: 'timeout' } }, 'linux');
    assert.deepStrictEqual(fallback, { PATH: '/base' });
  });

  it('describes exits for banners', () => {
    assert.strictEqual(describeAgentExit({ code: 1, signal: null }), 'exited with code 1');
    assert.strictEqual(describeAgentExit({ code: null, signal: 'SIGSEGV' }), 'was ended by SIGSEGV');
  });
});
