import './setupDom';
import * as assert from 'node:assert/strict';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { click, getByRole, mount, queryAllByRole, snapshot } from './helpers';

const filePlan = (planId: string, fileUri: string, id = `i-${planId}`): TranscriptItem => ({ kind: 'plan', id, planId, entries: [], fileUri });

describe('webview: file plan card', () => {
  it('names the file relative to the session folder and posts openPlanFile for that plan', () => {
    const h = mount(snapshot([filePlan('p1', 'file:///ws/docs/my%20plan.md')], { folders: ['/ws', '/other'] }));
    const card = getByRole(h.root, 'group', 'Plan');
    const open = getByRole(card, 'button', 'Open plan docs/my plan.md');
    assert.match(open.textContent ?? '', /Open plan\s*my plan\.md/);
    assert.match(card.textContent ?? '', /docs\/my plan\.md/);
    click(open);
    assert.deepEqual(h.last('openPlanFile'), { type: 'openPlanFile', sessionId: 's1', planId: 'p1', uri: 'file:///ws/docs/my%20plan.md' });
    h.unmount();
  });

  it('shows the whole path of a file outside the session folders, and a non-file URI as it is', () => {
    const h = mount(snapshot([filePlan('out', 'file:///home/me/.claude/plans/plan.md'), filePlan('web', 'https://example.com/plan.md')], { folders: ['/ws'] }));
    assert.ok(getByRole(h.root, 'button', 'Open plan /home/me/.claude/plans/plan.md'));
    assert.ok(getByRole(h.root, 'button', 'Open plan https://example.com/plan.md'));
    assert.equal(queryAllByRole(h.root, 'group', 'Plan').length, 2, 'one card per planId');
    h.unmount();
  });

  it('says on the card why the file did not open, until it opens or the plan names another file', () => {
    const uri = 'file:///ws/plan.md';
    const h = mount(snapshot([filePlan('p1', uri), filePlan('p2', 'file:///ws/other.md')], { folders: ['/ws'] }));
    h.send({ type: 'planFileOpened', sessionId: 's1', planId: 'p1', uri, error: 'The plan file /ws/plan.md does not exist.' });
    const [first, second] = queryAllByRole(h.root, 'group', 'Plan');
    assert.equal(getByRole(first, 'alert').textContent, 'The plan file /ws/plan.md does not exist.');
    assert.equal(queryAllByRole(second, 'alert').length, 0, 'only the card that failed');

    // The agent updates the plan in place with another file: the old error no longer applies.
    h.sendOps('s1', [{ op: 'replace', index: 0, id: 'i-p1', item: filePlan('p1', 'file:///ws/plan-v2.md') }]);
    assert.equal(queryAllByRole(h.root, 'alert').length, 0);
    assert.ok(getByRole(h.root, 'button', 'Open plan plan-v2.md'));

    h.send({ type: 'planFileOpened', sessionId: 's1', planId: 'p2', uri: 'file:///ws/other.md', error: 'nope' });
    assert.equal(queryAllByRole(h.root, 'alert').length, 1);
    h.send({ type: 'planFileOpened', sessionId: 's1', planId: 'p2', uri: 'file:///ws/other.md' });
    assert.equal(queryAllByRole(h.root, 'alert').length, 0, 'a later successful open clears it');
    h.unmount();
  });

  it('renders markdown and item plans as before, without an Open plan button', () => {
    const h = mount(
      snapshot([
        { kind: 'plan', id: 'm', planId: 'plan-mode', entries: [], markdown: '# The plan\n\n1. Change beta' },
        { kind: 'plan', id: 'e', planId: 'items', entries: [{ content: 'step one', priority: 'high', status: 'completed' }] },
      ]),
    );
    const [markdown, items] = queryAllByRole(h.root, 'group', 'Plan');
    assert.equal(markdown.querySelector('h1')?.textContent, 'The plan');
    assert.match(items.textContent ?? '', /1 of 1 done/);
    assert.equal(queryAllByRole(h.root, 'button', /^Open plan/).length, 0);
    h.unmount();
  });

  it('removing the plan removes its card', () => {
    const h = mount(snapshot([filePlan('p1', 'file:///ws/plan.md')], { folders: ['/ws'] }));
    h.sendOps('s1', [{ op: 'remove', index: 0, id: 'i-p1' }]);
    assert.equal(queryAllByRole(h.root, 'group', 'Plan').length, 0);
    h.unmount();
  });
});
