// The real Gemini CLI from npm does whole turns against the scripted Gemini API endpoint.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { GeminiApi } from '../../fixtures/modelEndpoint/gemini';
import { geminiRecipe } from '../../fixtures/realAgents/gemini';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';

describe('Gemini CLI 0.61 (real) does a whole turn', function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  it('explore', async () => {
    client = await TurnClient.start({ recipe: geminiRecipe, handlers: [new GeminiApi()], files: { 'notes.txt': 'alpha\nbeta\n', 'src/app.ts': "export const greeting = 'hello';\n" } });
    const c = client;
    c.endpoint.script([
      { thought: '**Planning the change**\nRead, then edit.', text: 'Let me look at the notes first.', tools: [{ read: { path: 'notes.txt' } }] },
      { text: 'Now the edit.', tools: [{ edit: { path: 'src/app.ts', oldText: "'hello'", newText: "'hello, world'" } }] },
      { tools: [{ shell: { command: 'echo shell-ran > shell.txt' } }] },
      { text: 'All done: the greeting now says hello, world.' },
    ]);
    const { init, session } = await c.openSession();
    const t0 = Date.now();
    const result = await c.prompt(session.sessionId, 'Update the greeting');
    const dump = { ms: Date.now() - t0, init, session, result, updates: c.updates, fs: c.fsCalls, perms: c.permissionRequests, log: c.endpoint.requests.map((r) => ({ ...r, body: r.kind === 'main' ? (r.body as { contents: unknown[] }).contents.slice(-2) : r.body })) };
    fs.writeFileSync('/tmp/gx/turn-dump.json', JSON.stringify(dump, null, 1));
    assert.ok(fs.existsSync(path.join(c.cwd, 'shell.txt')));
  });
});
