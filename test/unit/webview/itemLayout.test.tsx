import * as assert from 'node:assert/strict';
import { FIRST_ESTIMATE, ItemLayout } from '../../../webview-ui/src/virtual/itemLayout';
import { sizeClass } from '../../../webview-ui/src/virtual/sizeClass';
import type { TranscriptItem } from '../../../src/shared/transcript';

describe('webview: the virtual list estimates an item never rendered from those of its size class', () => {
  it('uses the mean of its class, the mean of all for a class not measured yet, and follows remeasurements', () => {
    const layout = new ItemLayout();
    const ids = ['u0', 'a1', 't2', 'u3', 'a4', 't5', 'x6'];
    const classes = ['user', 'answer', 'tool', 'user', 'answer', 'tool', 'other'];
    layout.setIds(ids, classes);
    assert.equal(layout.total(), 7 * FIRST_ESTIMATE, 'nothing measured: the first estimate');
    layout.measure('u0', 40, 'user');
    layout.measure('a1', 200, 'answer');
    layout.measure('t2', 60, 'tool');
    assert.equal(layout.estimate('user'), 40);
    assert.equal(layout.estimate('answer'), 200);
    assert.equal(layout.estimate('other'), 100, 'no item of its class measured: the mean of all');
    assert.equal(layout.top(4), 40 + 200 + 60 + 40, 'u3 is estimated as a prompt');
    assert.equal(layout.total(), 40 + 200 + 60 + 40 + 200 + 60 + 100);
    // An answer grew into another class: it leaves the old class's mean.
    layout.measure('a1', 500, 'long answer');
    assert.equal(layout.estimate('answer'), (40 + 400 + 60) / 3, 'the mean of all, each capped at 400 (no answer measured now)');
    assert.equal(layout.estimate('long answer'), 500);
    assert.equal(layout.top(2), 540);
  });

  it('an item’s class follows its kind and text length', () => {
    const text = (id: string, n: number): TranscriptItem => ({ kind: 'agent_message', id, content: [{ type: 'text', text: 'x'.repeat(n) }] });
    assert.equal(sizeClass(text('a', 30)), sizeClass(text('b', 60)));
    assert.notEqual(sizeClass(text('a', 30)), sizeClass(text('c', 3000)));
    const user: TranscriptItem = { kind: 'user_message', id: 'u', content: [{ type: 'text', text: 'x'.repeat(30) }] };
    assert.notEqual(sizeClass(user), sizeClass(text('a', 30)));
  });
});
