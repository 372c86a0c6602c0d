// A multi-root workspace (scripts/run-host-tests.mjs --multi-root opens a .code-workspace of two folders):
// sessions run in the first folder, and an agent that advertises sessionCapabilities.additionalDirectories
// gets the second folder as additionalDirectories in session/new and session/fork, and may read and write
// there through fs/*; an agent that does not advertise it gets none. The fake agent records what it got.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { waitFor } from '../index';
import { prompt, textOf, transcriptOf, withFakeAgents } from '../integration/helpers';

interface Received {
  method: string;
  params: { cwd?: string; additionalDirectories?: string[] };
}

describe('multi-root workspace: additionalDirectories', function () {
  this.timeout(60_000);
  const records = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-multi-root-'));
  const recordOf = (agent: string) => path.join(records, `${agent}.ndjson`);
  const context = withFakeAgents({ Roots: [`--record=${recordOf('Roots')}`], Plain: ['--minimal-caps', `--record=${recordOf('Plain')}`] });

  /** The requests `agent` received with this method, in order. */
  const received = (agent: string, method: string): Received[] =>
    (fs.existsSync(recordOf(agent)) ? fs.readFileSync(recordOf(agent), 'utf8').split('\n').filter(Boolean) : [])
      .map((line) => JSON.parse(line) as Received)
      .filter((r) => r.method === method);

  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);

  after(() => fs.rmSync(records, { recursive: true, force: true }));

  it('the window has two folders', () => {
    assert.strictEqual(folders().length, 2, `workspace folders: ${folders().join(', ')}`);
  });

  it('an agent that advertises additionalDirectories gets the second folder in session/new and session/fork, and may use it', async () => {
    const [first, second] = folders();
    const id = await context.sb.backend.lifecycle.open('Roots');
    const created = received('Roots', 'session/new');
    assert.strictEqual(created.length, 1, JSON.stringify(created));
    assert.strictEqual(created[0].params.cwd, first, 'cwd is the first folder');
    assert.deepStrictEqual(created[0].params.additionalDirectories, [second], 'the second folder as additionalDirectories');

    // The agent reads a file of the second folder and writes beside it, through the fs bridge.
    const readme = path.join(second, 'README.md');
    const out = `${readme}.out`;
    try {
      await context.sb.backend.sessions.require(id).prompt(prompt(`fs ${readme}`));
      const items = transcriptOf(context.sb, id).items;
      const said = items.filter((i) => i.kind === 'agent_message').map(textOf).join('');
      assert.match(said, /read \d+ chars/, `the read in the second folder was allowed: ${JSON.stringify(items.slice(-3))}`);
      await waitFor(() => fs.existsSync(out), 'the write in the second folder');
      assert.strictEqual(fs.readFileSync(out, 'utf8'), fs.readFileSync(readme, 'utf8').toUpperCase());
    } finally {
      while (context.sb.diffReview.pendingTurns().length > 0) context.sb.diffReview.keepAll();
      fs.rmSync(out, { force: true });
    }

    const fork = await context.sb.backend.lifecycle.fork(id);
    assert.ok(fork, 'the fork opened');
    const forked = received('Roots', 'session/fork');
    assert.strictEqual(forked.length, 1, JSON.stringify(forked));
    assert.deepStrictEqual([forked[0].params.cwd, forked[0].params.additionalDirectories], [first, [second]], 'the fork runs in the same folders');
  });

  it('an agent that does not advertise additionalDirectories gets none', async () => {
    await context.sb.backend.lifecycle.open('Plain');
    const created = received('Plain', 'session/new');
    assert.strictEqual(created.length, 1, JSON.stringify(created));
    assert.strictEqual(created[0].params.cwd, folders()[0], 'cwd is the first folder');
    assert.ok(!('additionalDirectories' in created[0].params), `no additionalDirectories: ${JSON.stringify(created[0].params)}`);
  });
});
