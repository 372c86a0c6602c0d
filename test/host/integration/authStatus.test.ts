// Who the agent is signed in as, through the real SessionBackend with the fake agent: Claude's
// `_auth/status_update` (after initialize; a payload of an unknown shape before it is ignored) and the
// standard `auth/status_update` (after logout) reach the agent's view, which the session header shows.
import * as assert from 'assert';
import { waitFor } from '../index';
import { withFakeAgents } from './helpers';

describe('agent sign-in status', function () {
  this.timeout(60_000);
  const context = withFakeAgents({ Accounted: [], Silent: ['--minimal-caps'], Asked: ['--no-auth-push'], Garbled: ['--no-auth-push', '--auth-status-garbage'] });

  const account = (id: string) => context.sb.backend.agents.views().find((a) => a.id === id)?.account;

  it("shows the account the agent reports (Claude's _auth/status_update), and Not signed in after Sign out", async () => {
    await context.sb.backend.lifecycle.open('Accounted');
    await waitFor(() => account('Accounted')?.label === 'Fake API key', 'the account from _auth/status_update');
    assert.deepStrictEqual({ ...account('Accounted') }, { signedIn: true, label: 'Fake API key', detail: 'env' });
    await context.sb.backend.agents.logout('Accounted');
    await waitFor(() => account('Accounted')?.signedIn === false, 'the status after logout');
    assert.strictEqual(account('Accounted')?.label, 'Not signed in');
  });

  it('asks auth/status once the agent started, so the account shows before the first prompt', async () => {
    await context.sb.backend.lifecycle.open('Asked');
    await waitFor(() => account('Asked') !== undefined, 'the account from auth/status');
    assert.deepStrictEqual({ ...account('Asked') }, { signedIn: true, label: 'Fake Account', detail: 'fake@example.test' });
  });

  it('an auth/status answer of the wrong shape shows no account and breaks nothing', async () => {
    const id = await context.sb.backend.lifecycle.open('Garbled');
    assert.ok(id);
    assert.strictEqual(account('Garbled'), undefined);
  });

  it('an agent that says nothing shows no account', async () => {
    await context.sb.backend.lifecycle.open('Silent');
    assert.strictEqual(account('Silent'), undefined);
  });
});
