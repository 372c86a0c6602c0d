// History: sessions the agent lists (session/list, paged) can be loaded (replayed into a tab), resumed
// and deleted; sessions from the local store reopen with their transcript even without the agent.
import * as assert from 'assert';
import type { SwitchboardApi } from '../../../src/extension';
import { waitFor } from '../index';
import { api, prompt, textOf, transcriptOf, useFakeAgents, withFakeAgents } from './helpers';

describe('history', function () {
  this.timeout(90_000);
  let sb: SwitchboardApi;
  let restore: () => Promise<void>;

  before(async () => {
    sb = await api();
    restore = await useFakeAgents({ Historian: [] });
    await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Historian'), 'the agent');
  });

  after(async () => {
    for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);
    await restore();
  });

  it('reopens local sessions with their transcript, binds them again without duplicates, and deletes them', async () => {
    const ids: string[] = [];
    for (const text of ['first chat', 'second chat', 'third chat']) {
      const id = await sb.backend.lifecycle.open('Historian');
      await sb.backend.sessions.require(id).prompt(prompt(text));
      ids.push(id);
    }
    // Close the tabs: the sessions stay with the agent (and in the local store).
    for (const id of ids) await sb.backend.lifecycle.close(id);
    await sb.backend.history.refresh();
    const fromAgent = sb.backend.history.list().filter((h) => h.agentId === 'Historian' && h.source === 'agent');
    const local = sb.backend.history.list().filter((h) => h.agentId === 'Historian' && h.source === 'local');
    assert.ok(local.length >= 3, `local entries: ${local.length}`);
    // The fake agent pages 2 at a time; its sessions are also in the local store, which wins the dedupe.
    assert.strictEqual(fromAgent.length, 0, 'sessions already in the local store are listed once');

    // Load from the local store: the transcript comes back without asking the agent.
    const entry = local.find((h) => h.title === 'second chat')!;
    await sb.backend.lifecycle.openHistory(entry.id, 'load');
    const reopened = sb.backend.sessions.snapshots().find((s) => s.view.title === 'second chat')!;
    const answer = transcriptOf(sb, reopened.view.sessionId).items.find((i) => i.kind === 'agent_message')!;
    assert.strictEqual(textOf(answer), 'echo: second chat');
    // The next prompt binds it to the agent again (session/load, replay skipped: no duplicates).
    await sb.backend.sessions.require(reopened.view.sessionId).prompt(prompt('more'));
    const messages = transcriptOf(sb, reopened.view.sessionId).items.filter((i) => i.kind === 'agent_message').map(textOf);
    assert.deepStrictEqual(messages, ['echo: second chat', 'echo: more']);

    // Deleting a local entry removes it from the list.
    const third = sb.backend.history.list().find((h) => h.title === 'third chat')!;
    await sb.backend.history.delete(third.id);
    assert.ok(!sb.backend.history.list().some((h) => h.id === third.id));
  });

  it('loads and deletes sessions that only the agent knows (session/list, session/load replay, session/delete)', async () => {
    // A session created outside this window's store: start one, then drop it from the local store.
    const id = await sb.backend.lifecycle.open('Historian');
    await sb.backend.sessions.require(id).prompt(prompt('agent only'));
    await sb.backend.lifecycle.close(id);
    const localEntry = sb.backend.history.list().find((h) => h.source === 'local' && h.title === 'agent only')!;
    await sb.backend.history.delete(localEntry.id);
    await sb.backend.history.refresh();
    const remote = await waitFor(
      () => sb.backend.history.list().find((h) => h.source === 'agent' && h.agentId === 'Historian' && h.canLoad),
      'an agent-listed session',
    );
    assert.ok(remote.canResume && remote.canDelete);
    await sb.backend.lifecycle.openHistory(remote.id, 'load');
    const loaded = sb.backend.sessions.snapshots().find((s) => s.view.sessionId !== id && s.view.agentId === 'Historian' && s.transcript.items.length > 0);
    assert.ok(loaded, 'the loaded session is open with its replayed transcript');
    const before = sb.backend.history.list().filter((h) => h.source === 'agent').length;
    const another = sb.backend.history.list().find((h) => h.source === 'agent' && h.canDelete)!;
    await sb.backend.history.delete(another.id);
    assert.strictEqual(sb.backend.history.list().filter((h) => h.source === 'agent').length, before - 1);
  });

  it('a tool call the agent never finished is shown unfinished after its turn, after a session/load replay, and after a reopen from the store', async () => {
    const teleport = (sessionId: string) => transcriptOf(sb, sessionId).items.find((i) => i.kind === 'tool_call' && i.title === 'Teleport');
    await sb.backend.history.refresh();
    const listedBefore = new Set(sb.backend.history.list().filter((h) => h.source === 'agent').map((h) => h.id));
    // `variants` leaves its "Teleport" call pending when the turn ends.
    const id = await sb.backend.lifecycle.open('Historian');
    await sb.backend.sessions.require(id).prompt(prompt('variants'));
    const live = teleport(id);
    assert.ok(live?.kind === 'tool_call' && live.status === 'pending');
    assert.strictEqual(live.unfinished, 'end_turn');
    const title = sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)!.view.title;
    await sb.backend.lifecycle.close(id);

    // Reopened from the local store.
    const local = sb.backend.history.list().find((h) => h.source === 'local' && h.title === title)!;
    await sb.backend.lifecycle.openHistory(local.id, 'load');
    const reopened = sb.backend.sessions.snapshots().find((s) => s.view.title === title && s.transcript.items.length > 0)!;
    const restored = teleport(reopened.view.sessionId);
    assert.strictEqual(restored?.kind === 'tool_call' && restored.unfinished, 'end_turn');
    await sb.backend.lifecycle.close(reopened.view.sessionId);

    // Replayed by the agent (session/load) once the local copy is gone: the replay has no turn end.
    await sb.backend.history.delete(sb.backend.history.list().find((h) => h.source === 'local' && h.title === title)!.id);
    await sb.backend.history.refresh();
    const remote = await waitFor(() => sb.backend.history.list().find((h) => h.source === 'agent' && h.agentId === 'Historian' && !listedBefore.has(h.id)), 'the agent-listed session');
    const open = new Set(sb.backend.sessions.snapshots().map((s) => s.view.sessionId));
    await sb.backend.lifecycle.openHistory(remote.id, 'load');
    const replayed = sb.backend.sessions.snapshots().find((s) => !open.has(s.view.sessionId))!;
    const call = teleport(replayed.view.sessionId);
    assert.ok(call?.kind === 'tool_call' && call.status === 'pending', 'replayed as the agent sent it');
    assert.strictEqual(call.unfinished, 'end_turn');
  });
});

describe('history across agents', function () {
  this.timeout(60_000);
  const context = withFakeAgents({ Broken: ['--list-fails'], Lister: [] });

  it("an agent whose session/list fails, or another agent's session with the same id, hides no agent's sessions", async () => {
    // Both fake agents number their sessions sess-1, sess-2…: Broken's sess-1 is kept locally (it has a message).
    const broken = await context.sb.backend.lifecycle.open('Broken');
    await context.sb.backend.sessions.require(broken).prompt(prompt('kept by Switchboard'));
    await context.sb.backend.lifecycle.close(broken);
    // No message: nothing is saved locally, so Lister's own list is what shows its sess-1.
    await context.sb.backend.lifecycle.close(await context.sb.backend.lifecycle.open('Lister'));
    await context.sb.backend.history.refresh();
    const seen = context.sb.backend.history.list().map((h) => [h.source, h.agentId, h.sessionId]);
    assert.ok(seen.some(([source, agent, id]) => source === 'local' && agent === 'Broken' && id === 'sess-1'), JSON.stringify(seen));
    assert.ok(seen.some(([source, agent, id]) => source === 'agent' && agent === 'Lister' && id === 'sess-1'), JSON.stringify(seen));
  });
});

