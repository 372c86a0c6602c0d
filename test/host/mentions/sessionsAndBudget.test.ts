// `@` Sessions and the prompt budget through the real backend: an earlier session's transcript reaches the
// agent as Markdown; a binary file, a file outside the session's folders under `fileAccess: deny`, a file
// and a transcript over the budget are refused in the chat with nothing sent.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { candidates, ref, resourceOf, sendAndReceive, sendRefused, withRecordingAgents } from './helpers';

describe('@ mentions: Sessions and the budget', function () {
  this.timeout(120_000);
  const { context, record, agents } = withRecordingAgents('Sessions');

  async function earlierSession(words: string): Promise<string> {
    const earlier = await context.sb.backend.lifecycle.open(agents.embedder);
    await context.sb.backend.sessions.require(earlier).prompt({ text: words, mentions: [], images: [] });
    await context.sb.backend.lifecycle.rename(earlier, `Earlier ${process.pid} ${words.length}`);
    return earlier;
  }

  it("an earlier session's transcript, as Markdown, as a resource or as text", async () => {
    const earlier = await earlierSession('the secret word is pineapple');
    const current = await context.sb.backend.lifecycle.open(agents.embedder);
    // Typed as a user would: the earlier session's name (other tests leave many sessions behind).
    const found = await candidates(context.sb, `Earlier ${process.pid}`, current);
    const mention = found.find((c) => c.kind === 'session' && c.label.includes(`Earlier ${process.pid}`));
    assert.ok(mention, `the earlier session is offered: ${JSON.stringify(found.filter((c) => c.kind === 'session'))}`);
    assert.ok(!found.some((c) => c.kind === 'session' && c.uri.endsWith(current)), 'not the session the message goes to');

    const resource = resourceOf(await sendAndReceive(context.sb, record.embedder, current, 'continue from there', [ref(mention)]));
    assert.strictEqual(resource.mimeType, 'text/markdown');
    assert.match(resource.text ?? '', /^# Earlier/);
    assert.match(resource.text ?? '', /## You\n\nthe secret word is pineapple/);
    assert.match(resource.text ?? '', /echo: the secret word is pineapple/, "with the agent's answer");

    const linking = await context.sb.backend.lifecycle.open(agents.linker);
    const blocks = await sendAndReceive(context.sb, record.linker, linking, 'continue', [ref(mention)]);
    assert.match(blocks.map((b) => b.text ?? '').join('\n'), /the secret word is pineapple/, 'as text without embedded context');
    assert.ok(earlier);
  });

  it('a session transcript too big for the budget is refused with the sizes and the way forward, nothing sent', async () => {
    const long = `long ${'words '.repeat(1000)}`;
    await earlierSession(long);
    const current = await context.sb.backend.lifecycle.open(agents.embedder);
    const mention = (await candidates(context.sb, `Earlier ${process.pid} ${long.length}`, current)).find((c) => c.kind === 'session' && c.label.includes(`Earlier ${process.pid} ${long.length}`));
    assert.ok(mention, 'the long session is offered');
    const restore = await setSettings({ 'switchboard.maxPromptBytes': 4096 });
    try {
      const error = await sendRefused(context.sb, record.embedder, current, [ref(mention)], /over the 4 KB one message may carry\. Largest: @session:Earlier/);
      assert.match(error.detail ?? '', /switchboard\.maxPromptBytes/);
      assert.doesNotMatch(error.detail ?? '', /as a link/, 'a transcript is no file to link');
    } finally {
      await restore();
    }
  });

  it('a file over the budget is refused and offered as a link; within the budget the same file goes', async () => {
    const file = path.join(workspaceRoot(), 'budget-big.log');
    fs.writeFileSync(file, 'line of log\n'.repeat(1000));
    const mention = { kind: 'file' as const, uri: vscode.Uri.file(file).toString(), label: 'budget-big.log' };
    const session = await context.sb.backend.lifecycle.open(agents.embedder);
    const restore = await setSettings({ 'switchboard.maxPromptBytes': 4096 });
    try {
      const error = await sendRefused(context.sb, record.embedder, session, [mention], /comes to 12 KB, over the 4 KB .* Largest: @budget-big\.log \(12 KB\)/);
      assert.match(error.detail ?? '', /@budget-big\.log .*as a link/);
    } finally {
      await restore();
    }
    const resource = resourceOf(await sendAndReceive(context.sb, record.embedder, session, 'read it', [mention]));
    assert.strictEqual(resource.text?.length, 12_000, 'whole, within the default budget');
  });

  it('a binary file is refused, nothing sent', async () => {
    const file = path.join(workspaceRoot(), 'image.bin');
    fs.writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff]));
    const session = await context.sb.backend.lifecycle.open(agents.embedder);
    await sendRefused(context.sb, record.embedder, session, [{ kind: 'file', uri: vscode.Uri.file(file).toString(), label: 'image.bin' }], /@image\.bin is a binary file/);
  });

  it('a file outside the session\'s folders is refused under fileAccess "deny", and goes under "ask" (the user picked it)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-outside-'));
    const file = path.join(dir, 'outside.txt');
    fs.writeFileSync(file, 'outside text');
    const mention = { kind: 'file' as const, uri: vscode.Uri.file(file).toString(), label: 'outside.txt' };
    const session = await context.sb.backend.lifecycle.open(agents.embedder);
    const restore = await setSettings({ 'switchboard.fileAccess': 'deny' });
    try {
      await waitFor(() => vscode.workspace.getConfiguration('switchboard').get('fileAccess') === 'deny', 'the setting');
      await sendRefused(context.sb, record.embedder, session, [mention], /@outside\.txt is outside the session's folders, and switchboard\.fileAccess is "deny"/);
      // A link says no more: the same for an agent without embedded context.
      const linking = await context.sb.backend.lifecycle.open(agents.linker);
      await sendRefused(context.sb, record.linker, linking, [mention], /outside the session's folders/);
    } finally {
      await restore();
    }
    assert.strictEqual(resourceOf(await sendAndReceive(context.sb, record.embedder, session, 'read it', [mention])).text, 'outside text');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
