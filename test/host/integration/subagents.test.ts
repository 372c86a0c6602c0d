// Subagents through the real SessionBackend and the chat's handler, with the fake agent's `subagent`
// scenario (child sessions in the form claude-agent-acp 0.101 sends): a child's updates, its permission
// request and its file reads land in the session that started it (nested, in that session's context), the
// chat's Cancel reaches the child alone, a child no one announced is kept, a child that outlives the turn
// keeps updating its nest and is cancelled when its session closes.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { sessionWait } from '../../../src/host/attention/waits';
import type { SubagentItem, TranscriptItem } from '../../../src/shared/transcript';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { prompt, textOf, transcriptOf, withFakeAgents } from './helpers';

const record = path.join(os.tmpdir(), `switchboard-subagents-${process.pid}-${Date.now()}.jsonl`);

describe('subagents: child sessions nested in the session that started them', function () {
  this.timeout(120_000);
  const context = withFakeAgents({ 'Subagent Fake': [`--record=${record}`] });
  after(() => fs.rmSync(record, { force: true }));

  const sb = () => context.sb;
  const view = (id: string) => sb().backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view;
  const items = (id: string) => transcriptOf(sb(), id).items;
  const nests = (id: string) => items(id).filter((i): i is SubagentItem => i.kind === 'subagent');
  const said = (list: readonly TranscriptItem[]) => list.filter((i) => i.kind === 'agent_message').map(textOf);
  const send = (id: string, text: string) => sb().chat.controller.handleMessage({ type: 'prompt', sessionId: id, prompt: prompt(text) });
  const idle = (id: string, what: string) => waitFor(() => view(id)?.turn === 'idle', what, 60_000);
  const cancels = () =>
    (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter(Boolean) : [])
      .map((l) => JSON.parse(l) as { method: string; params: { sessionId: string } })
      .filter((r) => r.method === 'session/cancel')
      .map((r) => r.params.sessionId);

  it("nests the child's tool calls and messages under it, asks its permission in the session, and shows it finished", async () => {
    const id = await sb().backend.lifecycle.open('Subagent Fake');
    send(id, 'subagent');
    const card = await waitFor(() => view(id)?.permissions.find((p) => p.title === 'Edit notes.txt'), "the child's permission card in the session");
    assert.strictEqual(nests(id)[0]?.state?.state, 'requires_action', 'the child waits for the user');
    // The card names the child, so the chat shows it in the child's nest; the session is what waits for the user.
    assert.deepStrictEqual(card.subagentPath, [nests(id)[0].sessionId], 'the path from the session to the child that asks');
    assert.strictEqual(card.toolCallId, `${nests(id)[0].sessionId}-edit`, "the child's own tool call");
    const wait = sessionWait(undefined, view(id)!, { agentName: 'Subagent Fake', stopReason: undefined, turnEnds: 0 });
    assert.strictEqual(wait?.kind, 'permission', 'attention counts the session as waiting for the permission');
    assert.strictEqual(wait?.requestId, card.requestId);
    sb().backend.requests.answerPermission(card.requestId, { optionId: 'allow' });
    await idle(id, 'the turn to end');
    const [nest] = nests(id);
    assert.ok(nest, 'a nest for the child');
    assert.strictEqual(nest.title, 'Explore the code');
    assert.match(nest.toolCallId ?? '', /^toolu_task_/, 'the Task call that started it');
    assert.deepStrictEqual(nest.state, { state: 'idle', stopReason: 'end_turn', usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 } });
    assert.strictEqual(nest.cancellable, true);
    const child = nest.transcript.items;
    const calls = child.filter((i) => i.kind === 'tool_call');
    assert.deepStrictEqual(calls.map((c) => c.kind === 'tool_call' && [c.title, c.status]), [['Read README.md', 'completed'], ['Edit notes.txt', 'completed']]);
    assert.match(JSON.stringify(calls[1]), /child permission: allow/);
    assert.deepStrictEqual(said(child), ['child done']);
    assert.ok(child.some((i) => i.kind === 'session_message' && JSON.stringify(i.content).includes('Find the tests')), 'the prompt it was given');
    assert.deepStrictEqual(nest.transcript.usage, { used: 1200, size: 200000 });
    assert.ok(said(items(id)).includes('parent continues after the child (allow)'));
    assert.ok(!items(id).some((i) => i.kind === 'tool_call'), "none of the child's calls leaks into the session's own");
  });

  it("Export Session as Markdown writes the child's transcript quoted under its heading, with its tool calls", async () => {
    const id = await sb().backend.lifecycle.open('Subagent Fake');
    send(id, 'subagent');
    const card = await waitFor(() => view(id)?.permissions.find((p) => p.title === 'Edit notes.txt'), "the child's permission card");
    sb().backend.requests.answerPermission(card.requestId, { optionId: 'allow' });
    await idle(id, 'the turn to end');
    sb().backend.sessions.select(id);
    await vscode.commands.executeCommand('switchboard.exportSession');
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    const order = ['## You', '> ### Subagent: Explore the code (finished)', '> ### Tool: Read README.md (read, completed)', '> ### Tool: Edit notes.txt (edit, completed)', '> child permission: allow', '> ## Explore the code\n>\n> child done', 'parent continues after the child (allow)'];
    let at = 0;
    for (const piece of order) {
      const i = text.indexOf(piece, at);
      assert.ok(i >= 0, `missing or out of order: ${JSON.stringify(piece)}\n${text}`);
      at = i + piece.length;
    }
  });

  it("Cancel from the chat sends session/cancel on the child alone; the session's turn goes on", async () => {
    const id = await sb().backend.lifecycle.open('Subagent Fake');
    send(id, 'subagent wait');
    const nest = await waitFor(() => nests(id).find((n) => n.state?.state === 'running' && said(n.transcript.items).length > 0), 'the child to work');
    await sb().chat.controller.handleMessage({ type: 'cancelSubagent', sessionId: id, subagentSessionId: nest.sessionId });
    await idle(id, 'the turn to end');
    assert.deepStrictEqual(nests(id)[0].state, { state: 'idle', stopReason: 'cancelled' });
    assert.ok(said(items(id)).includes('parent continues after the cancel'), said(items(id)).join(' | '));
    const end = items(id).at(-1);
    assert.ok(end?.kind === 'turn_end' && end.stopReason === 'end_turn', 'the turn was not cancelled');
    assert.ok(cancels().includes(nest.sessionId), 'session/cancel named the child');
  });

  it('keeps the updates of a child never announced under "Unknown subagent"', async () => {
    const id = await sb().backend.lifecycle.open('Subagent Fake');
    send(id, 'subagent unknown');
    await idle(id, 'the turn to end');
    const ghost = nests(id).find((n) => n.unannounced);
    assert.ok(ghost, JSON.stringify(items(id).map((i) => i.kind)));
    assert.deepStrictEqual(said(ghost.transcript.items), ['a child no one announced']);
    assert.ok(ghost.transcript.items.some((i) => i.kind === 'tool_call' && i.title === 'Ghost tool'));
  });

  it('asks the permission of a child never announced in the session that keeps it, under "Unknown subagent"', async () => {
    const id = await sb().backend.lifecycle.open('Subagent Fake');
    send(id, 'subagent unknown-ask');
    const card = await waitFor(() => view(id)?.permissions.find((p) => p.title === 'Ghost edit'), "the stranger's permission card in the session");
    const ghost = nests(id).find((n) => n.unannounced);
    assert.ok(ghost, 'the "Unknown subagent" nest');
    assert.deepStrictEqual(card.subagentPath, [ghost.sessionId], 'the card names the stranger, so the chat shows it in its nest');
    assert.strictEqual(card.toolCallId, `${ghost.sessionId}-edit`);
    const wait = sessionWait(undefined, view(id)!, { agentName: 'Subagent Fake', stopReason: undefined, turnEnds: 0 });
    assert.strictEqual(wait?.kind, 'permission', 'attention counts the session as waiting for the permission');
    assert.strictEqual(wait?.requestId, card.requestId);
    sb().backend.requests.answerPermission(card.requestId, { optionId: 'allow' });
    await idle(id, 'the turn to end');
    assert.ok(said(items(id)).includes('parent done (allow)'), said(items(id)).join(' | '));
    const calls = nests(id).find((n) => n.unannounced)?.transcript.items.filter((i) => i.kind === 'tool_call') ?? [];
    assert.match(JSON.stringify(calls), /ghost permission: allow/);
  });

  it('a child that outlives the turn keeps updating its nest; one still working is cancelled when its session closes', async () => {
    const gate = `subagent-gate-${Date.now()}`;
    const id = await sb().backend.lifecycle.open('Subagent Fake');
    send(id, `subagent outlive ${gate}`);
    await idle(id, 'the turn to end before the child');
    assert.strictEqual(nests(id)[0].state?.state, 'running');
    fs.writeFileSync(path.join(workspaceRoot(), gate), '');
    try {
      await waitFor(() => nests(id)[0].state?.state === 'idle' && said(nests(id)[0].transcript.items).includes('late child work'), 'the late work in the nest', 30_000);
    } finally {
      fs.rmSync(path.join(workspaceRoot(), gate), { force: true });
    }
    const closing = await sb().backend.lifecycle.open('Subagent Fake');
    send(closing, `subagent outlive never-${gate}`);
    await idle(closing, 'the turn to end');
    const child = nests(closing)[0].sessionId;
    await sb().backend.lifecycle.close(closing);
    await waitFor(() => cancels().includes(child), 'session/cancel for the child of the closed session', 30_000);
  });

  it("a child's file read outside the session's folders is refused as the session's own would be", async () => {
    const restore = await setSettings({ 'switchboard.fileAccess': 'deny' });
    try {
      const id = await sb().backend.lifecycle.open('Subagent Fake');
      const outside = path.join(os.tmpdir(), `switchboard-outside-${Date.now()}.txt`);
      fs.writeFileSync(outside, 'secret');
      try {
        send(id, `subagent outside ${outside}`);
        await idle(id, 'the turn to end');
      } finally {
        fs.rmSync(outside, { force: true });
      }
      assert.match(said(nests(id)[0].transcript.items).join(' '), /child read: error -32602 access_denied/);
    } finally {
      await restore();
    }
  });
});
