// End to end inside VS Code: the session backend drives real agent processes (the scripted fake agent)
// through the real bridges. These are the paths a user takes from the chat panel.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { api, prompt, stopAgent, textOf, transcriptOf, useFakeAgents, waitForAgentStatus } from './helpers';

describe('sessions with a real agent process', function () {
  this.timeout(60_000);
  let sb: SwitchboardApi;
  let restore: () => Promise<void>;

  before(async () => {
    sb = await api();
    restore = await useFakeAgents({
      Fake: [],
      'Fake Auth': ['--auth-required'],
      'Fake Minimal': ['--minimal-caps'],
    });
    await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Fake'), 'the Fake agent in the picker');
  });

  after(async () => {
    for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);
    for (const agent of ['Fake', 'Fake Auth', 'Fake Minimal']) await stopAgent(sb, agent);
    await restore();
  });

  it('lists the configured agents after the built-in presets', () => {
    const names = sb.backend.agents.views().map((a) => a.id);
    assert.ok(names.includes('Claude Agent') && names.includes('Gemini CLI') && names.includes('Codex'), names.join(', '));
    assert.ok(names.indexOf('Fake') > names.indexOf('Claude Agent'));
  });

  it('runs a turn: the prompt and the streamed answer end up in the transcript', async () => {
    const id = await sb.backend.lifecycle.open('Fake');
    await sb.backend.sessions.require(id).prompt(prompt('hello world'));
    const items = transcriptOf(sb, id).items;
    const user = items.find((i) => i.kind === 'user_message');
    const agent = items.find((i) => i.kind === 'agent_message');
    assert.ok(user && textOf(user).includes('hello world'), 'user message recorded');
    assert.ok(agent && textOf(agent) === 'echo: hello world', `agent message: ${agent && textOf(agent)}`);
    const end = items[items.length - 1];
    assert.deepStrictEqual(end.kind === 'turn_end' && [end.stopReason, end.empty], ['end_turn', false]);
    const view = sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)!.view;
    assert.strictEqual(view.turn, 'idle');
    assert.strictEqual(view.agentId, 'Fake');
  });

  it('flags an empty end_turn so the chat can say the agent returned nothing', async () => {
    const id = await sb.backend.lifecycle.open('Fake');
    await sb.backend.sessions.require(id).prompt(prompt('empty'));
    const last = transcriptOf(sb, id).items.at(-1)!;
    assert.ok(last.kind === 'turn_end' && last.empty, JSON.stringify(last));
  });

  it('keeps every update variant, unknown ones as unsupported items', async () => {
    const id = await sb.backend.lifecycle.open('Fake');
    await sb.backend.sessions.require(id).prompt(prompt('variants'));
    const t = transcriptOf(sb, id);
    const kinds = new Set(t.items.map((i) => i.kind));
    for (const kind of ['agent_message', 'thought', 'tool_call', 'plan', 'unsupported']) assert.ok(kinds.has(kind as never), `has ${kind}: ${[...kinds].join(',')}`);
    assert.ok(t.commands.length > 0, 'available commands kept');
  });

  it('routes a permission request to the session and answers with the chosen option', async () => {
    const id = await sb.backend.lifecycle.open('Fake');
    const turn = sb.backend.sessions.require(id).prompt(prompt('permission'));
    const pending = await waitFor(
      () => sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view.permissions[0],
      'a pending permission card',
    );
    const allow = pending.options.find((o) => o.kind === 'allow_once') ?? pending.options[0];
    sb.backend.requests.answerPermission(pending.requestId, { optionId: allow.optionId });
    await turn;
    const tool = transcriptOf(sb, id).items.find((i) => i.kind === 'tool_call');
    assert.ok(tool && tool.kind === 'tool_call');
    assert.ok(JSON.stringify(tool.content).includes(allow.optionId), JSON.stringify(tool.content));
  });

  it('a switchboard.autoApprove rule answers without a card and says so in the transcript', async () => {
    const restoreRule = await setSettings({ 'switchboard.autoApprove': { Fake: { edit: true } } });
    try {
      const id = await sb.backend.lifecycle.open('Fake');
      await sb.backend.sessions.require(id).prompt(prompt('permission'));
      const items = transcriptOf(sb, id).items;
      const tool = items.find((i) => i.kind === 'tool_call');
      assert.ok(JSON.stringify(tool).includes('"allow"'), JSON.stringify(tool));
      const notice = items.find((i) => i.kind === 'notice');
      assert.ok(notice && notice.kind === 'notice' && /Write file: allowed without asking/.test(notice.title), JSON.stringify(notice));
      assert.match(notice.description ?? '', /autoApprove/);
    } finally {
      await restoreRule();
    }
  });

  it('Stop answers a pending permission request with cancelled and ends the turn', async () => {
    const id = await sb.backend.lifecycle.open('Fake');
    const turn = sb.backend.sessions.require(id).prompt(prompt('permission'));
    await waitFor(() => sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view.permissions[0], 'a pending permission card');
    sb.backend.sessions.get(id)?.cancel();
    await turn;
    const tool = transcriptOf(sb, id).items.find((i) => i.kind === 'tool_call');
    assert.ok(JSON.stringify(tool).includes('cancelled'), JSON.stringify(tool));
    assert.strictEqual(sb.permissions.pending().length, 0);
  });

  it('cancels a turn the agent ends with stopReason cancelled', async () => {
    const id = await sb.backend.lifecycle.open('Fake');
    const turn = sb.backend.sessions.require(id).prompt(prompt('wait-cancel'));
    await waitFor(() => transcriptOf(sb, id).items.some((i) => i.kind === 'agent_message'), 'the agent to start working');
    sb.backend.sessions.get(id)?.cancel();
    await turn;
    const last = transcriptOf(sb, id).items.filter((i) => i.kind === 'turn_end').at(-1);
    assert.ok(last && last.kind === 'turn_end' && last.stopReason === 'cancelled', JSON.stringify(last));
  });

  it('ends the turn locally when the agent never answers session/cancel', async function () {
    this.timeout(30_000);
    const id = await sb.backend.lifecycle.open('Fake');
    const turn = sb.backend.sessions.require(id).prompt(prompt('never-cancel'));
    await waitFor(() => transcriptOf(sb, id).items.some((i) => i.kind === 'agent_message'), 'the agent to start working');
    sb.backend.sessions.get(id)?.cancel();
    await turn;
    const items = transcriptOf(sb, id).items;
    assert.ok(items.some((i) => i.kind === 'error' && /did not confirm the cancellation/.test(i.message)), JSON.stringify(items.at(-1)));
    assert.strictEqual(sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)!.view.turn, 'idle');
  });

  it('the agent reads the unsaved buffer, not the file on disk, and writes through the editor', async () => {
    const file = path.join(workspaceRoot(), 'notes-dirty.txt');
    fs.writeFileSync(file, 'on disk\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, doc.lineCount, 0), 'unsaved text\n'));
    assert.ok(doc.isDirty);
    const id = await sb.backend.lifecycle.open('Fake');
    await sb.backend.sessions.require(id).prompt(prompt(`fs ${file}`));
    const out = `${file}.out`;
    await waitFor(() => fs.existsSync(out), 'the agent to write the .out file');
    assert.strictEqual(fs.readFileSync(out, 'utf8'), 'UNSAVED TEXT\n');
  });

  it('a crash mid-turn keeps the transcript, shows the crash with stderr, and a new prompt restarts the agent', async () => {
    const id = await sb.backend.lifecycle.open('Fake');
    await sb.backend.sessions.require(id).prompt(prompt('crash'));
    await waitForAgentStatus(sb, 'Fake', 'crashed');
    const agent = sb.backend.agents.views().find((a) => a.id === 'Fake')!;
    assert.ok(agent.crash && /exit|code 3/i.test(agent.crash.message), JSON.stringify(agent.crash));
    const items = transcriptOf(sb, id).items;
    assert.ok(items.some((i) => i.kind === 'user_message'), 'the transcript is kept');
    assert.ok(items.some((i) => i.kind === 'error'), 'the crash is recorded in the transcript');
    const build = items.find((i) => i.kind === 'tool_call' && i.title === 'Run the build');
    assert.ok(build?.kind === 'tool_call' && build.status === 'in_progress');
    assert.strictEqual(build.unfinished, 'error', 'the tool call the crash cut off is no longer shown running');
    assert.strictEqual(sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)!.view.turn, 'idle');
    // The next prompt restarts the agent and binds the session again (session/load).
    await sb.backend.sessions.require(id).prompt(prompt('again'));
    const answer = transcriptOf(sb, id).items.filter((i) => i.kind === 'agent_message').at(-1)!;
    assert.strictEqual(textOf(answer), 'echo: again');
    await waitForAgentStatus(sb, 'Fake', 'ready');
  });

  it('shows exactly the sign-in methods the agent advertises, and signs in with the agent method', async () => {
    // New session as the chat asks for it: the chat opens it again once signed in.
    await assert.rejects(sb.chat.controller.newSession('Fake Auth'), /auth/i);
    await waitForAgentStatus(sb, 'Fake Auth', 'auth_required');
    const agent = sb.backend.agents.views().find((a) => a.id === 'Fake Auth')!;
    assert.deepStrictEqual(
      agent.authMethods?.map((m) => [m.id, m.kind]),
      [
        ['agent-login', 'agent'],
        ['terminal-login', 'terminal'],
        ['api-key', 'env_var'],
      ],
    );
    const before = sb.backend.sessions.snapshots().length;
    await sb.backend.agents.authenticate('Fake Auth', 'agent-login');
    // The session/new that needed sign-in is retried.
    await waitFor(() => sb.backend.sessions.snapshots().length === before + 1, 'the retried session');
    await waitForAgentStatus(sb, 'Fake Auth', 'ready');
  });

  it('a missing command gives a clear message with the install hint, not a stack trace', async () => {
    const restoreMissing = await setSettings({
      'switchboard.agents': { Missing: { command: 'switchboard-no-such-agent-xyz', args: [] }, Fake: { command: 'node', args: [] } },
    });
    try {
      await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Missing'), 'the Missing agent');
      await assert.rejects(sb.backend.lifecycle.open('Missing'), (e: Error) => /not found|could not find|ENOENT/i.test(e.message) && !/\n\s+at /.test(e.message));
      const agent = sb.backend.agents.views().find((a) => a.id === 'Missing')!;
      assert.strictEqual(agent.status, 'crashed');
      assert.match(agent.crash!.message, /switchboard-no-such-agent-xyz/);
    } finally {
      await restoreMissing();
    }
  });

  it('applies a settings change while a session runs, without touching the session', async () => {
    const id = await sb.backend.lifecycle.open('Fake');
    const restoreExtra = await useFakeAgents({ Fake: [], 'Fake Extra': [] });
    try {
      await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Fake Extra'), 'the new agent in the picker');
      await sb.backend.sessions.require(id).prompt(prompt('still here'));
      assert.strictEqual(textOf(transcriptOf(sb, id).items.filter((i) => i.kind === 'agent_message').at(-1)!), 'echo: still here');
    } finally {
      await restoreExtra();
    }
  });

  it('a malformed entry is reported and the valid entries keep working', async () => {
    const restoreBad = await setSettings({
      'switchboard.agents': { Good: { command: 'node', args: [] }, Bad: { args: 'nope', colour: 1 } },
    });
    try {
      await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Good'), 'the valid agent');
      assert.ok(!sb.backend.agents.views().some((a) => a.id === 'Bad'));
    } finally {
      await restoreBad();
    }
  });
});
