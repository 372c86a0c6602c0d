// The conformance tier in Node: each real agent's recorded turn, replayed by the replay agent over stdio
// into the real connection and session reducer, must leave the same cards, statuses, content, permission
// cards and files as the same turn in the protocol's canonical order, whatever order the agent sends it in
// (each recording's `quirks` say which agent sends which).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TranscriptState, type InitializeResult, type SessionNotification } from '../../../src/acp';
import { applyTranscriptOps } from '../../../src/shared/transcriptOps';
import { emptyTranscript } from '../../../src/shared/transcript';
import { CLIENT_INFO, startAgent, text, type Harness } from '../acp/helpers';
import { outcomeOf, permissionCard, STATUS_RANK, type Outcome } from './outcome';
import { canonicalOrder, loadRecordings, orderingsOf, REPLAY_AGENT, writeTurn, type Step } from './recordings';

/** What the client saw of one turn, and how its cards moved on the way. */
interface Replayed {
  outcome: Outcome;
  /** Cards whose status went back (e.g. "cline-1: in_progress -> pending"). */
  regressions: string[];
}

/** A client over the real connection: fs on disk, permissions answered with their first allow option, terminals run by /bin/sh. */
function client(h: Harness, requests: unknown[], terminalIds: string[]) {
  h.conn.handle('fs/read_text_file', (p) => ({ content: fs.readFileSync(p.path, 'utf8') }));
  h.conn.handle('fs/write_text_file', (p) => fs.writeFileSync(p.path, p.content));
  h.conn.handle('session/request_permission', (p) => {
    requests.push(p);
    const allow = p.options.find((o) => o.kind === 'allow_once') ?? p.options[0];
    return { outcome: { outcome: 'selected', optionId: allow.optionId } };
  });
  const terminals = new Map<string, { output: string; exitCode: number | null }>();
  h.conn.handle('terminal/create', (p) => {
    // A whole shell line with no args runs in a shell, as the host's terminal bridge does.
    const run = p.args?.length ? spawnSync(p.command, p.args, { cwd: p.cwd ?? undefined }) : spawnSync('/bin/sh', ['-c', p.command], { cwd: p.cwd ?? undefined });
    const terminalId = `term-${terminals.size}`;
    terminalIds.push(terminalId);
    terminals.set(terminalId, { output: `${run.stdout}${run.stderr}`, exitCode: run.status });
    return { terminalId };
  });
  h.conn.handle('terminal/output', (p) => ({ output: terminals.get(p.terminalId)!.output, truncated: false, exitStatus: { exitCode: terminals.get(p.terminalId)!.exitCode } }));
  h.conn.handle('terminal/wait_for_exit', (p) => ({ exitCode: terminals.get(p.terminalId)!.exitCode }));
  h.conn.handle('terminal/release', () => undefined);
  h.conn.handle('terminal/kill', () => undefined);
}

function filesUnder(dir: string): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  return Object.fromEntries(fs.readdirSync(dir).sort().map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

describe('conformance: orderings real agents send (replayed into the connection and reducer)', function () {
  this.timeout(60_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-conformance-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  for (const recording of loadRecordings()) {
    describe(recording.agent, () => {
      const cwd = path.join(tmp, recording.name);
      const turns = path.join(tmp, `${recording.name}-turns`);
      const requests: unknown[] = [];
      const terminalIds: string[] = [];
      let h: Harness;
      let canonical: Replayed;
      let initialized: InitializeResult;

      before(async () => {
        fs.mkdirSync(cwd, { recursive: true });
        fs.mkdirSync(turns, { recursive: true });
        h = startAgent(REPLAY_AGENT, [recording.file]);
        client(h, requests, terminalIds);
        initialized = await h.conn.initialize({ clientInfo: CLIENT_INFO });
        canonical = await replay('canonical', canonicalOrder(recording.turn));
      });
      after(() => h?.dispose());

      /** A new session replays `turn`; the reducer's transcript, and the same ops applied to a copy, are read. */
      async function replay(name: string, turn: readonly Step[]): Promise<Replayed> {
        const { file, run } = writeTurn(turns, name, turn);
        const { sessionId } = await h.conn.newSession({ cwd });
        const state = new TranscriptState(sessionId);
        let copy = emptyTranscript(sessionId);
        const statuses = new Map<string, string>();
        const regressions: string[] = [];
        const listening = h.conn.onSessionUpdate((n: SessionNotification) => {
          if (n.sessionId !== sessionId) return;
          copy = applyTranscriptOps(copy, state.apply(n.update));
          for (const item of state.transcript.items) {
            if (item.kind !== 'tool_call') continue;
            const before = statuses.get(item.toolCallId);
            if (before !== undefined && STATUS_RANK[item.status] < STATUS_RANK[before as keyof typeof STATUS_RANK]) regressions.push(`${item.toolCallId}: ${before} -> ${item.status}`);
            statuses.set(item.toolCallId, item.status);
          }
        });
        requests.length = 0;
        terminalIds.length = 0;
        try {
          const result = await h.conn.prompt(sessionId, [text(file)]);
          assert.equal(result.stopReason, 'end_turn');
          copy = applyTranscriptOps(copy, state.recordTurnEnd(result.stopReason));
        } finally {
          listening.dispose();
        }
        assert.deepEqual(copy, state.transcript, 'the ops the webview gets build the same transcript');
        const replayed = { transcript: state.transcript, permissions: requests.map(permissionCard), terminalIds: terminalIds.slice(), files: filesUnder(path.join(cwd, run)) };
        return { outcome: outcomeOf(replayed, { run, cwd }), regressions };
      }

      it('canonical order: one card per tool call, each finished, no status going back', () => {
        assert.deepEqual(canonical.outcome.duplicated, []);
        assert.deepEqual(canonical.regressions, []);
        const cards = Object.values(canonical.outcome.cards);
        assert.ok(cards.length > 0, 'the turn has tool calls');
        for (const card of cards) assert.equal(card.status, 'completed', JSON.stringify(card));
        assert.ok(Object.keys(canonical.outcome.files).length > 0, 'the turn leaves files');
      });

      it('the order the agent sends gives the canonical outcome', async () => {
        const recorded = await replay('recorded', recording.turn);
        assert.deepEqual(recorded.regressions, []);
        assert.deepEqual(recorded.outcome, canonical.outcome);
      });

      for (const [ordering, turn] of orderingsOf(canonicalOrder(recording.turn))) {
        it(`${ordering}: the same cards, statuses, content, permission cards and files`, async () => {
          const permuted = await replay(ordering, turn);
          assert.deepEqual(permuted.regressions, [], 'no card status goes back');
          assert.deepEqual(permuted.outcome, canonical.outcome);
        });
      }

      it('initialize reads what the agent announced, its non-standard _meta included', () => {
        const announced = recording.initialize.agentCapabilities ?? {};
        assert.equal(initialized.agentCapabilities.loadSession, announced.loadSession === true);
        assert.equal(initialized.agentCapabilities.promptCapabilities.image, announced.promptCapabilities?.image === true);
        assert.equal(initialized.agentInfo?.name, recording.initialize.agentInfo?.name);
      });

      if (recording.turn.some((s) => s.request !== undefined)) {
        it('agent request ids start at 0 and request 0 is answered', () => {
          const first = h.trace.find((e) => e.direction === 'receive' && e.type === 'request');
          assert.equal(first?.id, 0, JSON.stringify(first));
          assert.ok(h.trace.some((e) => e.direction === 'send' && e.id === 0 && e.type === 'response'), 'request 0 was answered');
        });
      }
    });
  }
});
