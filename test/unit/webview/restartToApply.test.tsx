import './setupDom';
import * as assert from 'node:assert/strict';
import type { AgentView } from '../../../src/shared/chatState';
import { click, getByRole, mount, queryAllByRole, snapshot } from './helpers';

function withAgent(agent: Partial<AgentView>) {
  const s = snapshot();
  s.agents = [{ id: 'Fake Agent', name: 'Fake Agent', status: 'ready', ...agent }];
  return mount(s);
}

describe('webview: an agent whose settings changed while it runs', () => {
  it('says what changed and offers the restart that applies it', () => {
    const h = withAgent({ settingsToApply: ['args', 'env'] });
    const status = queryAllByRole(h.root, 'status').find((el) => /settings changed/.test(el.textContent ?? ''));
    assert.match(status?.textContent ?? '', /Fake Agent's settings changed \(args, env\): it still runs with the earlier ones until it restarts/);
    click(getByRole(h.root, 'button', 'Restart Fake Agent to apply'));
    assert.deepEqual(h.last('restartAgent'), { type: 'restartAgent', agentId: 'Fake Agent' });
    h.unmount();
  });

  it('says Reconnect for a remote agent', () => {
    const h = withAgent({ settingsToApply: ['headers'], remote: true });
    assert.ok(getByRole(h.root, 'button', 'Reconnect Fake Agent to apply'));
    h.unmount();
  });

  it('shows nothing when nothing changed', () => {
    const h = withAgent({});
    assert.equal(queryAllByRole(h.root, 'button', /to apply/).length, 0);
    h.unmount();
  });
});
