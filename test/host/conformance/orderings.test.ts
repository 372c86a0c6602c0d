// The conformance tier inside a real VS Code: each real agent's recorded turn, replayed by the replay agent
// through the extension (the real Session, fs and terminal bridges, permission cards answered as the chat's
// buttons would, the changed-files list), in the canonical order, the order the agent sends and a few of the
// orderings real agents send. Cards, permission cards, changed files and files on disk must come out the same.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SwitchboardApi } from '../../../src/extension';
import type { PendingPermission } from '../../../src/shared/chatState';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { api, prompt, transcriptOf } from '../integration/helpers';
import { outcomeOf, type Outcome } from '../../unit/conformance/outcome';
import { canonicalOrder, loadRecordings, ORDERINGS, REPLAY_AGENT, startingFiles, writeTurn, type Recording, type Step } from '../../unit/conformance/recordings';

/** The orderings replayed here (the unit tier replays them all). */
const HOST_ORDERINGS = [
  'tool_call after its first update, pending (Cline)',
  'permission request before its tool_call (Kilo)',
  'tool_call while its permission request waits',
  'the same tool_call twice, the first bare (claude-code-acp 0.16.2)',
  'no tool_call at all, only updates for an unknown id',
];

const agentName = (r: Recording) => `Replay ${r.name}`;

/** One replay: the turn's steps, the file the prompt names and the run's folder name. */
interface Run {
  file: string;
  run: string;
  steps: readonly Step[];
}

/** The orderings of a recording replayed here: those that change its canonical turn. */
function orderingsOf(recording: Recording): string[] {
  const canonicalTurn = canonicalOrder(recording.turn);
  return HOST_ORDERINGS.filter((o) => JSON.stringify(ORDERINGS[o](canonicalTurn)) !== JSON.stringify(canonicalTurn));
}

/** Every replay of a recording by name: the canonical turn, the recorded one and each ordering's. */
function plannedTurns(recording: Recording): Array<[string, readonly Step[]]> {
  const canonicalTurn = canonicalOrder(recording.turn);
  return [['canonical', canonicalTurn], ['recorded', recording.turn], ...orderingsOf(recording).map((o): [string, Step[]] => [o, ORDERINGS[o](canonicalTurn)])];
}

function view(sb: SwitchboardApi, id: string) {
  return sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view;
}

function filesUnder(dir: string): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  return Object.fromEntries(fs.readdirSync(dir).sort().map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

describe('conformance: orderings real agents send, through the real session (host)', function () {
  this.timeout(120_000);
  const recordings = loadRecordings();
  const turns = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-conformance-turns-'));
  const folders: string[] = [];
  /** Per recording, its runs by name (`plannedTurns`). */
  const runsOf = new Map<string, Map<string, Run>>();
  let sb: SwitchboardApi;
  let restore: () => Promise<void>;

  before(async () => {
    sb = await api();
    const agents = Object.fromEntries(recordings.map((r) => [agentName(r), { command: 'node', args: [REPLAY_AGENT, r.file] }]));
    restore = await setSettings({ 'switchboard.agents': agents });
    // Every run's folder, with the files its turn finds, made before any turn starts (all at once, so the
    // wait below is paid once): a file born just before a turn would pass for one the agent created.
    const seeded: string[] = [];
    for (const recording of recordings) {
      const runs = new Map<string, Run>();
      runsOf.set(recording.name, runs);
      for (const [name, turn] of plannedTurns(recording)) {
        const written = writeTurn(turns, `${recording.name}-${name}`, turn);
        runs.set(name, { ...written, steps: turn });
        folders.push(path.join(workspaceRoot(), written.run));
        for (const [file, text] of Object.entries(startingFiles(recording, workspaceRoot(), written.run))) {
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, text);
          seeded.push(file);
        }
      }
    }
    await waitFor(() => recordings.every((r) => sb.backend.agents.views().some((a) => a.id === agentName(r))), 'the replay agents in the picker');
    await waitFor(() => seeded.every((f) => Date.now() - fs.statSync(f).mtimeMs > 1000), 'the starting files to be older than a turn start');
  });

  after(async () => {
    for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);
    // The replays' changes are kept (their folders go next); other tests' pending changes stay as they are.
    for (const turn of sb.diffReview.pendingTurns()) if (String((JSON.parse(turn.sessionId) as unknown[])[0]).startsWith('Replay ')) sb.diffReview.keepAll(turn);
    await restore();
    for (const dir of [...folders, turns]) fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A new session replays `turn`; every permission card is answered with its first "allow once" option as
   * the user would, and what the card showed is kept. Returns the outcome once the changed-files list has
   * caught up with every file the turn changed on disk.
   */
  async function replay(recording: Recording, turn: Run): Promise<{ id: string; outcome: Outcome }> {
    const id = await sb.backend.lifecycle.open(agentName(recording));
    const folder = path.join(workspaceRoot(), turn.run);
    const before = filesUnder(folder);

    const permissions: Array<[string, unknown]> = [];
    let done = false;
    const sent = sb.backend.sessions.require(id).prompt(prompt(turn.file)).finally(() => (done = true));
    while (!done) {
      const card = await waitFor<PendingPermission | true | undefined>(() => done || view(sb, id)?.permissions[0], 'a permission card or the end of the turn', 30_000);
      if (card === true) break;
      const { requestId, ...shown } = card;
      permissions.push([card.toolCallId ?? '', shown]);
      const allow = card.options.find((o) => o.kind === 'allow_once') ?? card.options[0];
      sb.backend.requests.answerPermission(requestId, { optionId: allow.optionId });
      await waitFor(() => done || view(sb, id)?.permissions[0]?.requestId !== requestId, 'the answered card to go');
    }
    await sent;

    const files = filesUnder(folder);
    const changedOnDisk = Object.keys(files).filter((f) => files[f] !== before[f]);
    // Files the agent writes with its own tools are found on disk by the changed-files mechanism, which
    // its own tests cover; here the list is compared without them, so the orderings are all it depends on.
    const selfWritten = new Set(turn.steps.flatMap((s) => (s.writeFile ? [path.basename(s.writeFile.path)] : [])));
    const throughClient = changedOnDisk.filter((f) => !selfWritten.has(f));
    const listed = () => sb.diffReview.changedFiles().filter((c) => path.dirname(c.path) === folder && !selfWritten.has(path.basename(c.path)));
    await waitFor(() => throughClient.every((f) => listed().some((c) => path.basename(c.path) === f)), `${throughClient.join(', ')} in the changed-files list`, 20_000);
    const changedFiles = listed()
      .map((c) => ({ file: path.basename(c.path), status: c.status, added: c.added, removed: c.removed, undoable: c.undoable, conflict: c.conflict }))
      .sort((a, b) => a.file.localeCompare(b.file));
    const transcript = transcriptOf(sb, id);
    const terminalIds = sb.backend.terminals.snapshots().map((t) => t.terminalId).filter((t) => JSON.stringify(transcript).includes(JSON.stringify(t)));
    const outcome = outcomeOf({ transcript, permissions, files, changedFiles, terminalIds }, { run: turn.run, cwd: workspaceRoot() });
    return { id, outcome };
  }

  for (const recording of recordings) {
    describe(recording.agent, () => {
      const canonicalTurn = canonicalOrder(recording.turn);
      const orderings = orderingsOf(recording);
      const run = (name: string): Run => runsOf.get(recording.name)!.get(name)!;
      let canonical: { id: string; outcome: Outcome };

      before(async () => {
        canonical = await replay(recording, run('canonical'));
      });
      // Each replay's session is closed once its outcome is read, as a user closes a finished tab: open, each
      // finished turn would keep its attention notification on screen to the end of the file.
      after(() => sb.backend.lifecycle.close(canonical.id));

      it('canonical order: one finished card per tool call, its permission cards answered, every file written through the client listed', () => {
        const { outcome } = canonical;
        assert.deepStrictEqual(outcome.duplicated, []);
        for (const card of Object.values(outcome.cards)) assert.strictEqual(card.status, 'completed', JSON.stringify(card));
        const asked = canonicalTurn.filter((s) => s.request === 'session/request_permission').length;
        assert.strictEqual(Object.keys(outcome.permissions).length, asked, JSON.stringify(outcome.permissions));
        assert.ok(Object.keys(outcome.files).length > 0, 'the turn left files');
        if (canonicalTurn.some((s) => s.request === 'fs/write_text_file')) {
          assert.ok(outcome.changedFiles?.length, 'files written through the client are listed');
          for (const f of outcome.changedFiles as Array<{ undoable: boolean }>) assert.ok(f.undoable, JSON.stringify(f));
        }
        assert.strictEqual(view(sb, canonical.id)?.error, undefined);
      });

      const showsTerminals = recording.turn.some((s) => JSON.stringify(s.update?.content ?? []).includes('"terminal"'));
      if (showsTerminals) it('terminals: one the client created ran its command line; one it never created shows the output the agent sent', async () => {
        const cards = transcriptOf(sb, canonical.id).items.flatMap((i) => (i.kind === 'tool_call' ? [i] : []));
        const shown = cards.flatMap((card) => card.content.flatMap((c) => (c.type === 'terminal' ? [{ card, terminalId: c.terminalId }] : [])));
        assert.ok(shown.length > 0, 'the turn shows a terminal');
        for (const { card, terminalId } of shown) {
          const created = sb.backend.terminals.snapshots().find((t) => t.terminalId === terminalId);
          if (created) {
            // A whole shell line in `command` with no args runs in a shell: exit 0 and its output.
            assert.strictEqual(created.exitStatus?.exitCode, 0, JSON.stringify(created));
            assert.ok(created.output.trim().length > 0, JSON.stringify(created));
          } else {
            // The agent's own shell (pi): its _meta.terminal_output is the card's output; Open terminal says it is closed.
            assert.ok(card.output && card.output.text.length > 0 && card.output.exitCode === 0, JSON.stringify(card));
            const heard: unknown[] = [];
            const sub = sb.backend.terminals.onDidOutput((e) => heard.push(e));
            try {
              sb.backend.terminals.reveal(canonical.id, terminalId);
              assert.deepStrictEqual(heard, [{ terminalId, data: '', open: false }]);
            } finally {
              sub.dispose();
            }
          }
        }
      });

      it('the order the agent sends: the same cards, permission cards, changed files and files', async () => {
        const recorded = await replay(recording, run('recorded'));
        await sb.backend.lifecycle.close(recorded.id);
        assert.deepStrictEqual(recorded.outcome, canonical.outcome);
      });

      for (const ordering of orderings) {
        it(`${ordering}: the same cards, permission cards, changed files and files`, async () => {
          const permuted = await replay(recording, run(ordering));
          await sb.backend.lifecycle.close(permuted.id);
          assert.deepStrictEqual(permuted.outcome, canonical.outcome);
        });
      }
    });
  }
});
