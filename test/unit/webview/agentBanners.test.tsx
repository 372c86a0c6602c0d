// The agent's state in the chat: the crash banner with Restart, the sign-in panel with the agent's methods,
// and picking an agent that needs sign-in while another agent's session is open.
import './setupDom';
import * as assert from 'node:assert/strict';
import { change, click, getByRole, mount, queryAllByRole, snapshot } from './helpers';

describe('webview: agent banners and sign-in', () => {
  it('crash banner shows the last stderr lines and Restart; auth panel lists methods', () => {
    const snap = snapshot([]);
    snap.agents[0] = { id: 'Fake Agent', name: 'Fake Agent', status: 'crashed', crash: { message: 'exited', exitCode: 1, stderrTail: ['Error: boom', 'at main'] } };
    const h = mount(snap);
    const alert = h.root.querySelector('[role="alert"]')!;
    assert.match(alert.textContent!, /Error: boom\nat main/);
    click(getByRole(h.root, 'button', 'Restart'));
    assert.deepEqual(h.last('restartAgent'), { type: 'restartAgent', agentId: 'Fake Agent' });
    h.send({ type: 'agents', agents: [{ id: 'Fake Agent', name: 'Fake Agent', status: 'auth_required', authMethods: [
      { id: 'login', name: 'Log in with browser', kind: 'agent' },
      { id: 'key', name: 'Use an API key', kind: 'env_var', vars: ['FAKE_API_KEY'] },
    ] }], defaultAgentId: 'Fake Agent' });
    getByRole(h.root, 'region', 'Sign in to Fake Agent');
    click(getByRole(h.root, 'button', 'Use an API key'));
    assert.deepEqual(h.last('authenticate'), { type: 'authenticate', agentId: 'Fake Agent', methodId: 'key' });
    h.unmount();
  });

  it('picking an agent that needs sign-in while another session is open: the picker stays on it and its methods show', () => {
    const h = mount(snapshot([]));
    const picker = () => getByRole(h.root, 'combobox', 'Agent') as HTMLSelectElement;
    change(picker(), 'Other Agent');
    h.flush();
    assert.equal(h.last('newSession')?.agentId, 'Other Agent');
    // The host answers: Other Agent waits for sign-in before it opens the session.
    h.send({ type: 'agents', defaultAgentId: 'Fake Agent', agents: [
      { id: 'Fake Agent', name: 'Fake Agent', status: 'ready' },
      { id: 'Other Agent', name: 'Other Agent', status: 'auth_required', afterSignIn: 'starts the session', authMethods: [{ id: 'key', name: 'Use Gemini API key', kind: 'agent' }] },
    ] });
    assert.equal(picker().value, 'Other Agent', 'the picker does not snap back to the active session agent');
    const region = getByRole(h.root, 'region', 'Sign in to Other Agent');
    assert.match(region.textContent!, /Signing in starts the session/);
    click(getByRole(region, 'button', 'Use Gemini API key'));
    assert.deepEqual(h.last('authenticate'), { type: 'authenticate', agentId: 'Other Agent', methodId: 'key' });
    click(getByRole(h.root, 'button', 'New session'));
    assert.equal(h.last('newSession')?.agentId, 'Other Agent', 'New session starts the picked agent, not another session of the active one');
    // A failed sign-in is said in the banner.
    h.send({ type: 'agents', defaultAgentId: 'Fake Agent', agents: [
      { id: 'Fake Agent', name: 'Fake Agent', status: 'ready' },
      { id: 'Other Agent', name: 'Other Agent', status: 'auth_required', authError: 'The sign-in command "Login" exited with code 1: sign-in failed.', authMethods: [{ id: 'key', name: 'Use Gemini API key', kind: 'agent' }] },
    ] });
    assert.match(getByRole(h.root, 'region', 'Sign in to Other Agent').textContent!, /exited with code 1: sign-in failed/);
    // Its session opens: the picker follows the active session again; choosing a tab also clears the pick.
    h.send({ type: 'session', session: { ...snapshot([]).sessions[0].view, sessionId: 's2', agentId: 'Other Agent' } });
    h.send({ type: 'activeSession', sessionId: 's2' });
    assert.equal(picker().value, 'Other Agent');
    click(queryAllByRole(h.root, 'tab')[0]);
    h.send({ type: 'activeSession', sessionId: 's1' });
    assert.equal(picker().value, 'Fake Agent');
    h.unmount();
  });
});
