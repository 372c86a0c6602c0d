// Every control the chat shows with one item of every kind and a queued message has an accessible name.
import './setupDom';
import * as assert from 'node:assert/strict';
import { ALL_ITEMS } from './allItems';
import { accessibleName, mount, queryAllByRole, snapshot } from './helpers';

describe('webview: accessible names', () => {
  it('every button, textbox and select has an accessible name', () => {
    const snap = snapshot(ALL_ITEMS, { turn: 'running', queue: [{ id: 'q', text: 'x', mentions: [], images: [] }] });
    const h = mount(snap);
    for (const role of ['button', 'textbox', 'searchbox', 'combobox', 'checkbox', 'tab']) {
      for (const el of queryAllByRole(h.root, role)) {
        assert.ok(accessibleName(el).length > 0, `unnamed ${role}: ${el.outerHTML.slice(0, 120)}`);
      }
    }
    h.unmount();
  });
});
