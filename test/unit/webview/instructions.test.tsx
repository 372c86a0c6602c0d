import './setupDom';
import * as assert from 'node:assert/strict';
import { mount, snapshot } from './helpers';

function badge(view: Parameters<typeof snapshot>[1]) {
  const h = mount(snapshot([], view));
  const el = h.root.querySelector('.instructions-badge');
  const out = el ? { text: el.textContent, label: el.getAttribute('aria-label') ?? '', warn: el.classList.contains('warning') } : undefined;
  h.unmount();
  return out;
}

describe('webview: standing instructions in the session header', () => {
  it('says they apply and where they came from', () => {
    const b = badge({ instructions: { sent: true, supported: true, sources: ['user settings', '.github/agent.md'], problems: [] } });
    assert.equal(b?.text, 'Instructions');
    assert.match(b!.label, /apply to this session/);
    assert.match(b!.label, /user settings, \.github\/agent\.md/);
    assert.equal(b?.warn, false);
  });

  it('says when the agent does not take them', () => {
    const b = badge({ instructions: { sent: false, supported: false, sources: ['user settings'], problems: [] } });
    assert.equal(b?.text, 'Instructions not sent');
    assert.match(b!.label, /Fake Agent does not take standing instructions/);
    assert.equal(b?.warn, true);
  });

  it('says what could not be used', () => {
    const b = badge({ instructions: { sent: false, supported: true, sources: [], problems: ['The instructions file x.md was not found.'] } });
    assert.match(b!.label, /x\.md was not found/);
  });

  it('shows nothing without instructions', () => {
    assert.equal(badge({}), undefined);
  });
});
