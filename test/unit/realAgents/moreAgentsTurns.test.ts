// Kilo 7.7.7, Cline 3.0.65 and Droid 0.215.0 from npm, each doing a whole turn against the scripted Chat
// Completions endpoint through Switchboard's own process and protocol layers (recipes and measured
// behaviour: test/fixtures/realAgents/kilo.ts, cline.ts, droid.ts). Each: streamed text, a read, an edit
// and a new file allowed, a shell command, the files on disk, and no process of the agent left after
// stop (Cline's hub daemon included). What a command printed is the agent's own capture: never asserted.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { openaiChat } from '../../fixtures/modelEndpoint/openaiChat';
import { clineRecipe } from '../../fixtures/realAgents/cline';
import { droidRecipe } from '../../fixtures/realAgents/droid';
import { kiloRecipe } from '../../fixtures/realAgents/kilo';
import { processesWithHome } from '../../fixtures/realAgents/processes';
import type { RealAgentRecipe } from '../../fixtures/realAgents/recipe';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';

interface ToolUpdate {
  readonly sessionUpdate: string;
  readonly toolCallId: string;
  readonly title?: string;
  readonly kind?: string;
  readonly status?: string;
  readonly rawInput?: unknown;
  readonly rawOutput?: unknown;
  readonly content?: ReadonlyArray<{ type: string; path?: string; newText?: string; terminalId?: string }>;
}

interface AgentCase {
  readonly recipe: RealAgentRecipe;
  readonly version: string;
  /** The tool kinds the agent asks permission for, in the order of the script (read, edit, write, shell). */
  readonly asks: readonly string[];
  /** The new file as the agent writes it (Cline's apply_patch drops the final newline of an added file). */
  readonly written?: string;
  /** A process the agent detaches (Cline's hub daemon), by a word of its command line: logged, ended by stop. */
  readonly daemon?: string;
}

const CASES: readonly AgentCase[] = [
  { recipe: kiloRecipe, version: '7.7.7', asks: ['read', 'edit', 'edit', 'execute'] },
  { recipe: clineRecipe, version: '3.0.65', asks: ['read', 'other', 'other', 'execute'], written: 'brand new', daemon: '--cline-hub-daemon' },
  { recipe: droidRecipe, version: '0.215.0', asks: ['edit', 'edit', 'execute'] },
];

const NOTES = 'line one\nline two\nline three\n';
const EDITED = 'line one\nline 2\nline three\n';

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

for (const c of CASES) {
  describe(`${c.recipe.label.replace(' (real)', '')} ${c.version} (real) does a whole turn`, function () {
    this.timeout(3 * TURN_TIMEOUT_MS);
    let client: TurnClient | undefined;
    afterEach(async () => {
      await client?.stop();
      client = undefined;
    });

    it('streams text, reads, edits and creates files with permission, runs a shell command, and leaves no process after stop', async () => {
      client = await TurnClient.start({ recipe: c.recipe, handlers: [openaiChat], permissions: 'ask', files: { 'notes.txt': NOTES } });
      const t = client;
      const notes = path.join(t.cwd, 'notes.txt');
      const added = path.join(t.cwd, 'added.txt');
      t.endpoint.script([
        { text: 'Let me read the notes first.', tools: [{ read: { path: notes } }] },
        { text: 'Now the edit.', tools: [{ edit: { path: notes, oldText: 'line two\n', newText: 'line 2\n' } }] },
        { tools: [{ write: { path: added, content: 'brand new\n' } }] },
        { tools: [{ shell: { command: 'echo shell-says-hi' } }] },
        { text: 'All done.' },
      ]);
      const { init, session } = await t.openSession();
      assert.strictEqual(init.agentInfo?.version, c.version, 'the pinned version');
      const result = await t.prompt(session.sessionId, 'Fix the notes');

      assert.strictEqual(result.stopReason, 'end_turn', t.diagnostics());
      assert.strictEqual(t.agentText(), 'Let me read the notes first.Now the edit.All done.');
      assert.strictEqual(fs.readFileSync(notes, 'utf8'), EDITED, 'the edit is on disk');
      assert.strictEqual(fs.readFileSync(added, 'utf8'), c.written ?? 'brand new\n', 'the new file, once');
      assert.strictEqual(t.endpoint.remaining, 0, t.endpoint.describeLog());

      // A tool call per step, each ending completed (Cline sends an update before its tool_call: any order).
      const all = [...t.updatesOf('tool_call'), ...t.updatesOf('tool_call_update')] as unknown as ToolUpdate[];
      const ids = [...new Set(all.map((u) => u.toolCallId))];
      assert.strictEqual(ids.length, 4, `four tool calls: ${JSON.stringify(all.map((u) => [u.toolCallId, u.sessionUpdate, u.status, u.title]))}`);
      for (const id of ids) {
        assert.ok(t.updatesOf('tool_call').some((u) => 'toolCallId' in u && u.toolCallId === id), `a tool_call for ${id}`);
        const statuses = all.filter((u) => u.toolCallId === id).map((u) => u.status);
        assert.ok(statuses.includes('completed'), `${id} completed: ${JSON.stringify(statuses)}`);
      }
      // Each permission request names one of those calls; the kinds are the agent's.
      assert.deepStrictEqual(t.permissionRequests.map((p) => p.toolCall.kind), c.asks);
      assert.ok(t.permissionRequests.every((p) => ids.includes(p.toolCall.toolCallId)));

      // Stop: the agent and everything it started with its HOME are gone.
      const before = await processesWithHome(t.home);
      assert.ok(before.length >= 1, 'the agent runs with its HOME');
      if (c.daemon) {
        const daemon = before.filter((pid) => commandLine(pid).includes(c.daemon!));
        console.log(`    ${c.recipe.label}: ${daemon.length} ${c.daemon} process(es) before stop`);
      }
      await t.process.stop();
      const left = await processesWithHome(t.home);
      assert.deepStrictEqual(left.map((pid) => commandLine(pid)), [], 'no process of the agent left after stop');
    });
  });
}
