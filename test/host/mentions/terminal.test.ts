// `@` Terminal through the real backend: a terminal with shell integration offers its last command, and the
// agent gets the command, its output and exit code; a terminal without shell integration (an extension's
// pseudoterminal never has it) is offered with that said, and refused with the way forward.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { waitFor } from '../index';
import { candidates, ref, resourceOf, sendAndReceive, sendRefused, withRecordingAgents } from './helpers';

describe('@ mentions: Terminal', function () {
  this.timeout(120_000);
  const { context, record, agents } = withRecordingAgents('Terminal');
  const terminals: vscode.Terminal[] = [];
  after(() => terminals.forEach((t) => t.dispose()));

  it("a shell-integrated terminal's last command, its output and exit code reach the agent", async function () {
    const terminal = vscode.window.createTerminal({ name: `mentions-bash-${process.pid}`, shellPath: '/bin/bash' });
    terminals.push(terminal);
    terminal.show();
    const integration = await waitFor(() => terminal.shellIntegration, 'shell integration in the terminal', 45_000);
    // The output of a command that prints at once can land in the same write as its start marker, which
    // shell integration does not stream to extensions: this one waits a moment first.
    integration.executeCommand('sleep 1; echo "mention-$((40+2))"; false');
    const found = await waitFor(async () => {
      const list = await candidates(context.sb, 'terminal');
      return list.find((c) => c.kind === 'terminal' && c.label === `terminal:${terminal.name}` && c.detail?.startsWith('Last command: sleep 1'));
    }, 'the terminal with its last command in the @ list', 45_000);

    const embedding = await context.sb.backend.lifecycle.open(agents.embedder);
    const resource = resourceOf(await sendAndReceive(context.sb, record.embedder, embedding, 'why did it fail?', [ref(found)]));
    assert.strictEqual(resource.mimeType, 'text/markdown');
    assert.match(resource.text ?? '', /\$ sleep 1; echo "mention-\$\(\(40\+2\)\)"; false/);
    assert.match(resource.text ?? '', /\nmention-42\n/, 'its output');
    assert.match(resource.text ?? '', /Exit code: 1/);
    assert.ok(!(resource.text ?? '').includes('\u001b'), 'no escape sequences');

    const linking = await context.sb.backend.lifecycle.open(agents.linker);
    const blocks = await sendAndReceive(context.sb, record.linker, linking, 'why did it fail?', [ref(found)]);
    assert.match(blocks.map((b) => b.text ?? '').join('\n'), /mention-42/, 'as text without embedded context');
  });

  it('a terminal without shell integration is offered as such and refused with the way forward, nothing sent', async () => {
    const writes = new vscode.EventEmitter<string>();
    const terminal = vscode.window.createTerminal({ name: `mentions-pty-${process.pid}`, pty: { onDidWrite: writes.event, open: () => writes.fire('plain output\r\n'), close: () => writes.dispose() } });
    terminals.push(terminal);
    const found = await waitFor(async () => (await candidates(context.sb, 'terminal')).find((c) => c.kind === 'terminal' && c.label === `terminal:${terminal.name}`), 'the terminal in the @ list', 30_000);
    assert.strictEqual(found.detail, 'No shell integration');
    const session = await context.sb.backend.lifecycle.open(agents.embedder);
    const error = await sendRefused(context.sb, record.embedder, session, [ref(found)], /has no shell integration/);
    assert.match(error.detail ?? '', /shellIntegration/);
  });
});
