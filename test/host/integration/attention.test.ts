// Attention's "Show" and Retry through the real extension with the fake agent: "Show" on a notification
// whose session was closed meanwhile says so and changes nothing; on a live session it makes that session
// the chat's tab. A failed turn offers Retry (its error is retryable), and Retry sends the same prompt with
// its attachment again; a turn that stopped for sign-in offers none.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { waitFor, workspaceRoot } from '../index';
import { prompt, textOf, transcriptOf, withFakeAgents } from './helpers';

const SHOW = 'switchboard.attention.show';

describe('attention: Show and its races; Retry', function () {
  this.timeout(120_000);
  const context = withFakeAgents({ 'Attention Agent': [] });
  const backend = () => context.sb.backend;
  const viewOf = (id: string) => backend().sessions.snapshots().find((s) => s.view.sessionId === id)?.view;
  const agentSaid = (id: string) => transcriptOf(context.sb, id).items.filter((i) => i.kind === 'agent_message').map(textOf).join('\n');

  before(async () => {
    // The attention code loads with the first session.
    await backend().lifecycle.open('Attention Agent');
    await waitFor(async () => (await vscode.commands.getCommands(true)).includes(SHOW), 'the Show command', 30_000);
  });

  it('"Show" for a session closed before the click says so and reveals nothing', async () => {
    const closing = await backend().lifecycle.open('Attention Agent');
    const other = await backend().lifecycle.open('Attention Agent');
    await backend().sessions.require(closing).prompt(prompt('ends while another tab is shown'));
    await backend().lifecycle.close(closing);
    const shown = await vscode.commands.executeCommand<boolean>(SHOW, closing);
    assert.strictEqual(shown, false);
    assert.strictEqual(backend().sessions.activeTabId(), other, 'the tab shown stays');
    // A malformed argument is no crash either.
    assert.strictEqual(await vscode.commands.executeCommand<boolean>(SHOW, { not: 'a key' }), false);
  });

  it('"Show" on a session that waits makes it the chat\'s tab', async () => {
    const waiting = await backend().lifecycle.open('Attention Agent');
    const shownTab = await backend().lifecycle.open('Attention Agent');
    assert.strictEqual(backend().sessions.activeTabId(), shownTab);
    await backend().sessions.require(waiting).prompt(prompt('ends in a tab not shown'));
    assert.strictEqual(await vscode.commands.executeCommand<boolean>(SHOW, waiting), true);
    assert.strictEqual(backend().sessions.activeTabId(), waiting);
  });

  it('a failed turn is retryable; Retry sends the same prompt with its attachment again', async () => {
    const id = await backend().lifecycle.open('Attention Agent');
    const file = path.join(workspaceRoot(), 'README.md');
    const failing = { text: 'fail-once with an attachment', mentions: [{ kind: 'file' as const, uri: vscode.Uri.file(file).toString(), label: 'README.md' }], images: [] };
    await backend().sessions.require(id).prompt(failing);
    assert.strictEqual(viewOf(id)?.error?.retryable, true, `a retryable error, got ${JSON.stringify(viewOf(id)?.error)}`);
    assert.match(viewOf(id)?.error?.message ?? '', /model endpoint failed/);
    context.sb.chat.controller.handleMessage({ type: 'retry', sessionId: id });
    await waitFor(() => /retried: with an attachment \[resource/.test(agentSaid(id)), 'the retried turn with its attachment', 60_000);
    await waitFor(() => viewOf(id)?.turn === 'idle', 'the retried turn to end', 30_000);
    assert.strictEqual(viewOf(id)?.error, undefined, 'the error is gone');
    // Nothing left to retry: a second Retry is refused (logged), not sent.
    const before = transcriptOf(context.sb, id).items.length;
    context.sb.chat.controller.handleMessage({ type: 'retry', sessionId: id });
    assert.strictEqual(transcriptOf(context.sb, id).items.length, before);
  });
});
