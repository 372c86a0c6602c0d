// elicitation/complete through the real SessionBackend with the fake agent: a URL elicitation the agent says
// finished elsewhere is answered `accept` and leaves the session view; one for an unknown id is ignored.
import * as assert from 'assert';
import type { SwitchboardApi } from '../../../src/extension';
import { api, prompt, textOf, transcriptOf, useFakeAgents } from './helpers';

describe('elicitation/complete', function () {
  this.timeout(60_000);
  let sb: SwitchboardApi;
  let restore: () => Promise<void>;

  before(async () => {
    sb = await api();
    restore = await useFakeAgents({ Eliciting: [] });
  });

  after(async () => {
    for (const s of sb.backend.getSessions()) await sb.backend.closeSession(s.view.sessionId);
    await restore();
  });

  it('a URL elicitation the agent completes is answered accept and its card goes; an unknown id is ignored', async () => {
    const id = await sb.backend.newSession('Eliciting');
    await sb.backend.sendPrompt(id, prompt('elicit-url'));
    const said = transcriptOf(sb, id).items.filter((i) => i.kind === 'agent_message').map(textOf);
    assert.deepStrictEqual(said, ['elicitation: accept'], 'nobody answered: elicitation/complete did');
    const view = sb.backend.getSessions().find((s) => s.view.sessionId === id)!.view;
    assert.deepStrictEqual(view.elicitations, [], 'no card left waiting');
    assert.strictEqual(view.error, undefined);
  });
});
