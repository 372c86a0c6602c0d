import './setupDom';
import * as assert from 'node:assert/strict';
import { getByRole, mount, snapshot } from './helpers';
import { resetText } from '../../../webview-ui/src/components/RateLimits';

describe('webview: rate limits beside the context meter', () => {
  it('shows each window the agent reported, with its use and reset time', () => {
    const resetsAt = new Date(2026, 10, 27, 15, 30).getTime();
    const h = mount(snapshot([], {}, {
      usage: { used: 1000, size: 200000 },
      rateLimits: [
        { window: 'five_hour', status: 'allowed_warning', utilization: 0.78, resetsAt },
        { window: 'seven_day', status: 'rejected' },
      ],
    }));
    try {
      const group = getByRole(h.root, 'group', 'Rate limits');
      assert.match(group.textContent!, /5-hour 78% resets/);
      assert.match(group.textContent!, /Weekly limit reached/);
      assert.ok(group.querySelector('.status-warning') && group.querySelector('.status-rejected'));
    } finally {
      h.unmount();
    }
  });

  it('shows nothing when the agent reports no windows', () => {
    const h = mount(snapshot([], {}, { usage: { used: 1000, size: 200000 } }));
    try {
      assert.equal(h.root.querySelector('[aria-label="Rate limits"]'), null);
    } finally {
      h.unmount();
    }
  });

  it('says the day when the window resets on another day', () => {
    const now = new Date(2026, 10, 27, 12, 0).getTime();
    assert.match(resetText(new Date(2026, 10, 27, 15, 30).getTime(), now), /^resets \d/);
    assert.match(resetText(new Date(2026, 10, 30, 15, 30).getTime(), now), /^resets \D+ \d/);
  });
});
