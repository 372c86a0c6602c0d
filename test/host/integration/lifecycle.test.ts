// Agent lifecycle as the chat sees it: a slow start shows "starting" and then works; the restart cap
// stops automatic restarts after repeated crashes with an explanation, and Restart starts afresh.
import * as assert from 'assert';
import type { SwitchboardApi } from '../../../src/extension';
import { waitFor } from '../index';
import { api, prompt, useFakeAgents, waitForAgentStatus } from './helpers';

describe('agent lifecycle', function () {
  this.timeout(120_000);
  let sb: SwitchboardApi;
  let restore: () => Promise<void>;

  before(async () => {
    sb = await api();
    restore = await useFakeAgents({ Slow: ['--slow-start=3000'], Crashy: [] });
    await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Crashy'), 'the agents');
  });

  after(async () => {
    for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);
    await restore();
  });

  it('a slow start shows the agent as starting, then the session works', async () => {
    const seen = new Set<string>();
    const sub = sb.backend.agents.onDidChange(() => {
      const status = sb.backend.agents.views().find((a) => a.id === 'Slow')?.status;
      if (status) seen.add(status);
    });
    try {
      const id = await sb.backend.lifecycle.open('Slow');
      assert.ok(seen.has('starting'), [...seen].join(','));
      await sb.backend.sessions.require(id).prompt(prompt('hi'));
      await waitForAgentStatus(sb, 'Slow', 'ready');
    } finally {
      sub.dispose();
    }
  });

  it('after 5 crashes in 3 minutes automatic restarts stop with an explanation; Restart starts afresh', async () => {
    const id = await sb.backend.lifecycle.open('Crashy');
    for (let i = 0; i < 5; i++) {
      await sb.backend.sessions.require(id).prompt(prompt('crash'));
      await waitForAgentStatus(sb, 'Crashy', 'crashed');
    }
    const agent = sb.backend.agents.views().find((a) => a.id === 'Crashy')!;
    assert.match(agent.crash!.message, /crashed 5 times/);
    // The next prompt does not silently restart it: the session shows why.
    await sb.backend.sessions.require(id).prompt(prompt('again'));
    const view = sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)!.view;
    assert.match(view.error?.message ?? JSON.stringify(view), /stopped restarting|crashed 5 times/);
    // Restart (the button / command) resets the cap.
    await sb.backend.agents.restart('Crashy');
    await sb.backend.sessions.require(id).prompt(prompt('back'));
    await waitForAgentStatus(sb, 'Crashy', 'ready');
  });
});
