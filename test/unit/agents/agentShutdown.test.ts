import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import { fixture, killQuietly, nextLine, pidExists, waitUntil } from './helpers';

/*
 * The extension host shutting down (window closed or reloaded) with an agent that exits on stdin close
 * and leaves a detached daemon that ignores SIGTERM (Cline and its hub daemon). The host exits right
 * after deactivate, so only what deactivate (or the exit hook) did synchronously counts.
 */
const linuxOnly = process.platform === 'linux' ? describe : describe.skip;

linuxOnly('agent shutdown when the extension host exits', function () {
  this.timeout(40_000);
  const strays: number[] = [];

  afterEach(() => killQuietly(strays.splice(0)));

  async function runHost(mode: string): Promise<{ host: ChildProcess; agent: number; daemon: number }> {
    const host = spawn(process.execPath, [fixture('exitingHost.js'), mode], { stdio: ['pipe', 'pipe', 'inherit'] });
    const report = JSON.parse(await nextLine(host.stdout!, (line) => line.startsWith('{'), 20_000)) as { agent: number; daemon: number };
    strays.push(report.agent, report.daemon);
    assert.ok(pidExists(report.daemon), 'the daemon runs before the host shuts down');
    return { host, ...report };
  }

  async function shutDown(host: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => host.once('exit', resolve));
    host.stdin!.end();
    await exited;
  }

  it('deactivate ends the daemon even when the graceful stop has no time to finish', async () => {
    const { host, agent, daemon } = await runHost('1');
    await shutDown(host);
    assert.ok(await waitUntil(() => !pidExists(daemon), 10_000), 'the daemon outlived the host');
    assert.ok(await waitUntil(() => !pidExists(agent), 10_000), 'the agent outlived the host');
  });

  it('deactivate with time for the graceful stop ends the daemon too', async () => {
    const { host, agent, daemon } = await runHost('20000');
    await shutDown(host);
    assert.ok(!pidExists(daemon), 'the daemon outlived the host');
    assert.ok(!pidExists(agent), 'the agent outlived the host');
  });

  it('a host that exits without deactivate still takes the daemon with it', async () => {
    const { host, daemon } = await runHost('exit');
    await shutDown(host);
    assert.ok(await waitUntil(() => !pidExists(daemon), 10_000), 'the daemon outlived the host');
  });
});
