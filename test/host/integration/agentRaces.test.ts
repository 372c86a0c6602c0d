// Start, stop, restart and cancel called twice or in any order leave the agent either running (one
// process, answering) or stopped (no process), never half-started; the last call decides which. A start
// overtaken by a restart gets the restarted agent; one overtaken by a stop says it was stopped.
import * as assert from 'assert';
import { execFileSync } from 'node:child_process';
import type { AcpClientConnection } from '../../../src/acp';
import type { AgentRuntime } from '../../../src/host/agents/agentRuntime';
import { waitFor } from '../index';
import { prompt, transcriptOf, withFakeAgents } from './helpers';

type Op = 'start' | 'stop' | 'restart';
const OPS: Op[] = ['start', 'stop', 'restart'];
/** Marks this run's agents: another test host on the machine (a second clone's `npm test`) runs the same test. */
const MARKER = `--race-marker=switchboard-agent-races-${process.pid}-${Date.now()}`;

/** Every sequence of two and of three operations. */
function sequences(): Op[][] {
  const pairs = OPS.flatMap((a) => OPS.map((b) => [a, b]));
  return [...pairs, ...pairs.flatMap((p) => OPS.map((c) => [...p, c]))];
}

/** The fake agent processes of this test run still alive (node processes with its marker). */
function liveAgents(): number[] {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  return lines.filter((l) => l.includes(MARKER) && /^\s*\d+\s+\S*node\s/.test(l)).map((l) => Number(l.trim().split(/\s+/)[0]));
}

describe('agent lifecycle: start, stop, restart and cancel in any order', function () {
  this.timeout(240_000);
  // A slow start widens the window in which the calls overlap.
  const ctx = withFakeAgents({ Racy: ['--slow-start=150', MARKER] });
  let runtime: AgentRuntime;

  before(() => {
    runtime = ctx.sb.backend.agents.runtime('Racy');
  });

  after(async () => {
    await runtime.stop();
  });

  async function settle(ops: Op[]): Promise<void> {
    // Whether each start or restart handed out a connection that had finished initialize, read when it did.
    const calls = ops.map((op) => (runtime[op]() as Promise<AcpClientConnection | undefined>).then((c) => (op === 'stop' ? true : c?.agent !== undefined)));
    const results = await Promise.allSettled(calls);
    const lastStop = ops.lastIndexOf('stop');
    results.forEach((r, i) => {
      const label = `${ops.join(' + ')}: ${ops[i]} #${i}`;
      if (r.status === 'fulfilled') return assert.ok(r.value, `${label} returned a connection before initialize finished`);
      // Only a start that a later stop overtook may fail, and it says so.
      assert.ok(i < lastStop, `${label} failed: ${String(r.reason)}`);
      assert.match(String(r.reason), /stopped while it was starting/, label);
    });
    const running = ops[ops.length - 1] !== 'stop';
    await waitFor(() => liveAgents().length === (running ? 1 : 0), `${running ? 'one agent process' : 'no agent process'} after ${ops.join(' + ')} (live: ${liveAgents().join(', ')})`);
    assert.strictEqual(runtime.status, running ? 'ready' : 'stopped', ops.join(' + '));
  }

  for (const from of ['stopped', 'running'] as const) {
    it(`from ${from}: every pair and triple of start, stop and restart ends as its last call says`, async () => {
      for (const ops of sequences()) {
        if (from === 'running') await runtime.start();
        else await runtime.stop();
        await settle(ops);
      }
      // And the agent still works: a session and a turn.
      const id = await ctx.sb.backend.lifecycle.open('Racy');
      await ctx.sb.backend.sessions.require(id).prompt(prompt('hello'));
      assert.strictEqual(liveAgents().length, 1);
    });
  }

  it('cancel twice, then restart, during a turn: the turn ends and the next message is answered', async () => {
    const id = await ctx.sb.backend.lifecycle.open('Racy');
    const turn = ctx.sb.backend.sessions.require(id).prompt(prompt('wait-cancel'));
    await waitFor(() => sessionTurn(id) === 'running', 'the turn running');
    await Promise.all([ctx.sb.backend.sessions.get(id)?.cancel(), ctx.sb.backend.sessions.get(id)?.cancel(), ctx.sb.backend.agents.restart('Racy')]);
    await turn;
    await waitFor(() => sessionTurn(id) === 'idle', 'the turn ended');
    await ctx.sb.backend.sessions.require(id).prompt(prompt('hello'));
    assert.strictEqual(sessionTurn(id), 'idle');
    assert.strictEqual(liveAgents().length, 1);
  });

  it('restart twice during a turn, then cancel: one agent, the turn ended, the next message is answered', async () => {
    const id = await ctx.sb.backend.lifecycle.open('Racy');
    const turn = ctx.sb.backend.sessions.require(id).prompt(prompt('wait-cancel'));
    await waitFor(() => sessionTurn(id) === 'running', 'the turn running');
    await Promise.all([ctx.sb.backend.agents.restart('Racy'), ctx.sb.backend.agents.restart('Racy'), ctx.sb.backend.sessions.get(id)?.cancel()]);
    await turn;
    await waitFor(() => sessionTurn(id) === 'idle', 'the turn ended');
    await ctx.sb.backend.sessions.require(id).prompt(prompt('hello'));
    assert.strictEqual(liveAgents().length, 1);
  });

  function sessionTurn(id: string): string | undefined {
    return ctx.sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view.turn;
  }
});

// The window between the agent's process starting and its answer to initialize: a session opened or a
// message sent then must wait for initialize, not be sent early ("Call initialize() before other ACP
// requests", seen after a remote agent's Reconnect).
describe('agent lifecycle: requests while the agent initializes', function () {
  this.timeout(120_000);
  const SLOW_MARKER = `--race-marker=switchboard-agent-initializing-${process.pid}-${Date.now()}`;
  // The fake agent reads nothing for 3 s: its initialize answer comes at least that late.
  const ctx = withFakeAgents({ Slow: ['--slow-start=3000', SLOW_MARKER] });
  let runtime: AgentRuntime;

  before(() => {
    runtime = ctx.sb.backend.agents.runtime('Slow');
  });

  after(async () => {
    await runtime.stop();
  });

  const slowAgents = () => execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).split('\n').filter((l) => l.includes(SLOW_MARKER) && /^\S*node\s/.test(l)).length;

  /** Until the agent's process runs and its initialize is unanswered. */
  async function initializing(): Promise<void> {
    await waitFor(() => runtime.status === 'starting' && slowAgents() === 1, 'the agent process started, initialize unanswered');
    assert.strictEqual(runtime.connection, undefined, 'no connection is handed out before initialize');
  }

  it('a session opened then waits for initialize and opens', async () => {
    await runtime.stop();
    const starting = runtime.start();
    await initializing();
    const id = await ctx.sb.backend.lifecycle.open('Slow');
    await starting;
    await ctx.sb.backend.sessions.require(id).prompt(prompt('hello'));
    const items = transcriptOf(ctx.sb, id).items;
    assert.ok(!items.some((i) => i.kind === 'error'), JSON.stringify(items.filter((i) => i.kind === 'error')));
    assert.ok(items.some((i) => i.kind === 'agent_message'), 'the agent answered');
  });

  it('a message sent while the agent restarts waits for it and is answered', async () => {
    const id = await ctx.sb.backend.lifecycle.open('Slow');
    const restarted = ctx.sb.backend.agents.restart('Slow');
    await initializing();
    await ctx.sb.backend.sessions.require(id).prompt(prompt('hello'));
    await restarted;
    const items = transcriptOf(ctx.sb, id).items;
    assert.ok(!items.some((i) => i.kind === 'error' && /initialize/.test(i.message)), JSON.stringify(items.filter((i) => i.kind === 'error')));
    assert.strictEqual(items.filter((i) => i.kind === 'turn_end').length, 1, 'one turn, ended');
  });
});
