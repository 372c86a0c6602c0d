// elicitation/complete through the real SessionBackend with the fake agent: a URL elicitation the agent says
// finished elsewhere is answered `accept` and leaves the session view; one for an unknown id is ignored.
import * as assert from 'assert';
import { prompt, textOf, transcriptOf, withFakeAgents } from './helpers';

describe('elicitation/complete', function () {
  this.timeout(60_000);
  const context = withFakeAgents({ Eliciting: [] });

  it('a URL elicitation the agent completes is answered accept and its card goes; an unknown id is ignored', async () => {
    const id = await context.sb.backend.lifecycle.open('Eliciting');
    await context.sb.backend.sessions.require(id).prompt(prompt('elicit-url'));
    const said = transcriptOf(context.sb, id).items.filter((i) => i.kind === 'agent_message').map(textOf);
    assert.deepStrictEqual(said, ['elicitation: accept'], 'nobody answered: elicitation/complete did');
    const view = context.sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)!.view;
    assert.deepStrictEqual(view.elicitations, [], 'no card left waiting');
    assert.strictEqual(view.error, undefined);
  });
});
