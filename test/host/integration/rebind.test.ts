// A session reopened from the local store is bound to its agent again on the next prompt: with
// session/resume where the agent offers it (nothing replayed), else session/load (replay skipped), else a
// new session that says the agent forgot. The fake agent records every request it gets.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prompt, textOf, transcriptOf, withFakeAgents } from './helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-rebind-'));
const resumeLog = path.join(dir, 'resumer.jsonl');
const loadLog = path.join(dir, 'loader.jsonl');

function methods(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { method: string }).method);
}

describe('binding a reopened session again', function () {
  this.timeout(90_000);
  const context = withFakeAgents({ Resumer: [`--record=${resumeLog}`], Loader: ['--no-resume', `--record=${loadLog}`] });

  /** Opens a session, answers one prompt, closes the tab and reopens it from the local store (detached). */
  async function reopened(agent: string, text: string): Promise<string> {
    const { backend } = context.sb;
    const id = await backend.lifecycle.open(agent);
    await backend.sessions.require(id).prompt(prompt(text));
    await backend.lifecycle.rename(id, `${agent} ${text}`);
    await backend.lifecycle.close(id);
    const entry = backend.history.list().find((h) => h.source === 'local' && h.title === `${agent} ${text}`);
    assert.ok(entry, 'kept in the local store');
    await backend.lifecycle.openHistory(entry.id, 'load');
    const tab = backend.sessions.snapshots().find((s) => s.view.title === `${agent} ${text}`);
    assert.ok(tab, 'reopened');
    return tab.view.sessionId;
  }

  const answers = (id: string) => transcriptOf(context.sb, id).items.filter((i) => i.kind === 'agent_message').map(textOf);

  it('uses session/resume where the agent advertises it: no session/load, no replay, no duplicates', async () => {
    const id = await reopened('Resumer', 'one');
    const before = methods(resumeLog).length;
    await context.sb.backend.sessions.require(id).prompt(prompt('two'));
    const sent = methods(resumeLog).slice(before);
    assert.deepStrictEqual(sent.filter((m) => m.startsWith('session/') && m !== 'session/prompt'), ['session/resume'], sent.join(', '));
    assert.deepStrictEqual(answers(id), ['echo: one', 'echo: two']);
  });

  it('uses session/load where resume is missing, and skips its replay', async () => {
    const id = await reopened('Loader', 'one');
    const before = methods(loadLog).length;
    await context.sb.backend.sessions.require(id).prompt(prompt('two'));
    const sent = methods(loadLog).slice(before);
    assert.ok(!sent.includes('session/resume'), sent.join(', '));
    assert.ok(sent.includes('session/load'), sent.join(', '));
    assert.deepStrictEqual(answers(id), ['echo: one', 'echo: two']);
  });

  it('falls back from a resume the agent refuses (it forgot the session) to load, then to a new session that says so', async () => {
    const id = await reopened('Resumer', 'forgotten');
    await context.sb.backend.agents.restart('Resumer');
    const before = methods(resumeLog).length;
    await context.sb.backend.sessions.require(id).prompt(prompt('after restart'));
    const sent = methods(resumeLog).slice(before).filter((m) => ['session/resume', 'session/load', 'session/new'].includes(m));
    assert.deepStrictEqual(sent, ['session/resume', 'session/load', 'session/new']);
    assert.deepStrictEqual(answers(id).slice(-1), ['echo: after restart']);
    const errors = transcriptOf(context.sb, id).items.filter((i) => i.kind === 'error');
    assert.ok(errors.some((e) => e.kind === 'error' && /started a new session/.test(e.message)), 'the chat says the agent does not remember');
  });
});
