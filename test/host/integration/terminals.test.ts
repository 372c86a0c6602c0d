// A terminal card's "Open terminal" through the session backend: the fake agent's terminal/create makes a
// real VS Code terminal; openTerminal shows it while it is open and reports it closed (never throws) after.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TerminalOutputEvent } from '../../../src/chat/chatBackend';
import type { SwitchboardApi } from '../../../src/extension';
import { waitFor } from '../index';
import { api, prompt, stopAgent, transcriptOf, useFakeAgents } from './helpers';

describe('sessions: Open terminal', function () {
  this.timeout(60_000);
  let sb: SwitchboardApi;
  let restore: () => Promise<void>;
  const other: vscode.Terminal[] = [];

  before(async () => {
    sb = await api();
    restore = await useFakeAgents({ 'Fake Terminal': [] });
    await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Fake Terminal'), 'the Fake Terminal agent in the picker');
  });

  after(async () => {
    for (const t of other) t.dispose();
    for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);
    await stopAgent(sb, 'Fake Terminal');
    await restore();
  });

  /** Runs the fake agent's terminal turn (create, wait, release) and returns the card's terminal id. */
  async function terminalTurn(id: string): Promise<string> {
    await sb.backend.sessions.require(id).prompt(prompt('terminal'));
    const card = transcriptOf(sb, id).items.find((i) => i.kind === 'tool_call' && i.toolCallId === 'term-1');
    const content = card?.kind === 'tool_call' ? card.content.find((c) => c.type === 'terminal') : undefined;
    assert.ok(content?.type === 'terminal', JSON.stringify(card));
    return content.terminalId;
  }

  async function showOther(name: string): Promise<vscode.Terminal> {
    const t = vscode.window.createTerminal(name);
    other.push(t);
    t.show();
    await waitFor(() => vscode.window.activeTerminal === t, `"${name}" to be the active terminal`);
    return t;
  }

  it('reveals the VS Code terminal of a released terminal/create terminal; a closed one is reported closed', async () => {
    const id = await sb.backend.lifecycle.open('Fake Terminal');
    const terminalId = await terminalTurn(id);
    // Released after the turn, its terminal stays open: the chat is told so.
    assert.strictEqual(sb.backend.terminals.snapshots().find((t) => t.terminalId === terminalId)?.open, true);

    const mine = await showOther('Not the agent');
    sb.backend.terminals.reveal(id, terminalId);
    const agentTerminal = await waitFor(() => (vscode.window.activeTerminal !== mine ? vscode.window.activeTerminal : undefined), 'the agent terminal to be shown');
    assert.strictEqual(agentTerminal.name, 'Agent: echo hi');

    // Another session cannot show it.
    const second = await sb.backend.lifecycle.open('Fake Terminal');
    await showOther('Still not the agent');
    const events: TerminalOutputEvent[] = [];
    const sub = sb.backend.terminals.onDidOutput((e) => events.push(e));
    try {
      sb.backend.terminals.reveal(second, terminalId);
      assert.notStrictEqual(vscode.window.activeTerminal, agentTerminal);

      // The user closes it: the chat hears it is closed, and opening it again answers "closed", no error.
      events.length = 0;
      agentTerminal.dispose();
      await waitFor(() => events.some((e) => e.terminalId === terminalId && e.open === false), 'the terminal to be reported closed');
      assert.strictEqual(sb.backend.terminals.snapshots().find((t) => t.terminalId === terminalId)?.open, false);
      events.length = 0;
      sb.backend.terminals.reveal(id, terminalId);
      assert.deepStrictEqual(events, [{ terminalId, data: '', open: false }]);
      // An id the host never had, or a closed session: the same clear answer.
      events.length = 0;
      sb.backend.terminals.reveal('no-such-session', 'term_nope');
      assert.deepStrictEqual(events, [{ terminalId: 'term_nope', data: '', open: false }]);
    } finally {
      sub.dispose();
    }
  });

  it('closing the session closes its terminals and tells the chat', async () => {
    const id = await sb.backend.lifecycle.open('Fake Terminal');
    const events: TerminalOutputEvent[] = [];
    const sub = sb.backend.terminals.onDidOutput((e) => events.push(e));
    try {
      const terminalId = await terminalTurn(id);
      assert.ok(events.some((e) => e.terminalId === terminalId && e.open === true), 'opened');
      await sb.backend.lifecycle.close(id);
      await waitFor(() => events.some((e) => e.terminalId === terminalId && e.open === false), 'the terminal to be reported closed');
    } finally {
      sub.dispose();
    }
  });
});
