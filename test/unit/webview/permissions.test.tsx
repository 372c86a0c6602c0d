// What the agent asks of the user in the chat: permission requests (inside their tool call's card, or a card
// of their own) and elicitation forms built from the request's schema.
import './setupDom';
import * as assert from 'node:assert/strict';
import { accessibleName, change, click, getByRole, mount, queryAllByRole, snapshot, typeInto } from './helpers';

describe('webview: permission and elicitation requests', () => {
  it('permission card: one button per option named by the option name; click posts the answer', () => {
    const h = mount(snapshot(
      [{ kind: 'tool_call', id: 't1', toolCallId: 'tc1', title: 'Write config.json', toolKind: 'edit', status: 'pending', content: [], locations: [] }],
      { turn: 'running', permissions: [{
        requestId: '0', toolCallId: 'tc1', title: 'Write config.json', toolKind: 'edit',
        locations: [{ path: '/ws/config.json' }],
        content: [{ type: 'diff', path: '/ws/config.json', oldText: null, newText: '{}' }],
        options: [
          { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'always', name: 'Always allow edits', kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      }] },
    ));
    // The request shows inside its tool call's group (an announced region there), not as a second card.
    const group = getByRole(h.root, 'group', 'Write config.json');
    assert.ok(group.classList.contains('awaiting'));
    assert.match(group.textContent!, /Awaiting permission/);
    const card = getByRole(group, 'region', 'Permission: Write config.json');
    assert.equal(queryAllByRole(h.root, 'region').filter((r) => accessibleName(r).startsWith('Permission:')).length, 1);
    assert.equal(h.root.querySelectorAll('.permission-card').length, 0, 'no standalone card');
    // The tool call shows no diff yet: the request's preview is shown, once.
    assert.equal(card.querySelectorAll('.diff-preview').length, 1);
    assert.equal(h.root.querySelectorAll('.diff-preview').length, 1);
    for (const name of ['Allow once', 'Always allow edits', 'Reject']) {
      const b = getByRole(group, 'button', name);
      assert.equal(b.tagName, 'BUTTON');
      assert.notEqual(b.tabIndex, -1);
    }
    assert.ok(getByRole(group, 'button', 'Always allow edits').classList.contains('kind-allow_always'));
    click(getByRole(group, 'button', 'Always allow edits'));
    assert.deepEqual(h.last('permissionAnswer'), { type: 'permissionAnswer', sessionId: 's1', requestId: '0', answer: { optionId: 'always' } });
    h.unmount();
  });

  it('a permission request never repeats the diff its tool call already shows', () => {
    const diff = { type: 'diff' as const, path: '/ws/a.ts', oldText: 'a', newText: 'b' };
    const h = mount(snapshot(
      [{ kind: 'tool_call', id: 't1', toolCallId: 'tc1', title: 'Edit a.ts', toolKind: 'edit', status: 'pending', content: [diff], locations: [] }],
      { turn: 'running', permissions: [{
        requestId: '3', toolCallId: 'tc1', title: 'Edit a.ts', toolKind: 'edit', content: [diff],
        options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }],
      }] },
    ));
    const group = getByRole(h.root, 'group', 'Edit a.ts');
    assert.equal(h.root.querySelectorAll('.diff-preview').length, 1, 'the diff shows once, in the tool call');
    assert.equal(getByRole(group, 'region', 'Permission: Edit a.ts').querySelectorAll('.diff-preview').length, 0);
    click(getByRole(group, 'button', 'Reject'));
    assert.deepEqual(h.last('permissionAnswer'), { type: 'permissionAnswer', sessionId: 's1', requestId: '3', answer: { optionId: 'no' } });
    // Answered: the request goes, the card is a plain tool call again.
    h.send({ type: 'session', session: { ...h.store.state.sessions.get('s1')!.view, permissions: [] } });
    const after = getByRole(h.root, 'group', 'Edit a.ts');
    assert.ok(!after.classList.contains('awaiting'));
    assert.equal(queryAllByRole(after, 'button').filter((b) => accessibleName(b) === 'Reject').length, 0);
    h.unmount();
  });

  it('a permission request for a tool call the transcript lacks gets a card of its own, with its preview', () => {
    const h = mount(snapshot(
      [{ kind: 'tool_call', id: 't1', toolCallId: 'tc1', title: 'Read a.ts', toolKind: 'read', status: 'completed', content: [], locations: [] }],
      { turn: 'running', permissions: [{
        requestId: '5', toolCallId: 'unknown', title: 'Run rm -rf build', toolKind: 'execute', command: 'rm -rf build',
        content: [{ type: 'diff', path: '/ws/b.ts', oldText: null, newText: 'x' }],
        options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
      }] },
    ));
    const card = getByRole(h.root, 'region', 'Permission: Run rm -rf build');
    assert.ok(card.classList.contains('permission-card'));
    assert.equal(card.closest('[role="group"]'), null, 'not inside an unrelated tool call');
    assert.match(card.textContent!, /\$ rm -rf build/);
    assert.equal(card.querySelectorAll('.diff-preview').length, 1);
    assert.ok(!getByRole(h.root, 'group', 'Read a.ts').classList.contains('awaiting'));
    click(getByRole(card, 'button', 'Allow'));
    assert.deepEqual(h.last('permissionAnswer'), { type: 'permissionAnswer', sessionId: 's1', requestId: '5', answer: { optionId: 'ok' } });
    h.unmount();
  });

  it('elicitation form from the schema posts typed content; Decline and Cancel', () => {
    const h = mount(snapshot([], { elicitations: [{
      requestId: 'e1', mode: 'form', message: 'Configure the deploy',
      schema: { type: 'object', required: ['name'], properties: {
        name: { type: 'string', title: 'Name' },
        count: { type: 'integer', title: 'Count' },
        dry: { type: 'boolean', title: 'Dry run' },
        env: { type: 'string', title: 'Environment', enum: ['dev', 'prod'], enumNames: ['Development', 'Production'] },
        tags: { type: 'array', title: 'Tags', items: { enum: ['a', 'b'] } },
      } },
    }] }));
    const form = getByRole(h.root, 'form', 'Configure the deploy');
    click(getByRole(form, 'button', 'Accept'));
    assert.equal(h.last('elicitationAnswer'), undefined, 'required field blocks accept');
    typeInto(getByRole(form, 'textbox', 'Name (required)') as HTMLInputElement, 'web');
    typeInto(getByRole(form, 'spinbutton', 'Count') as HTMLInputElement, '3');
    click(getByRole(form, 'checkbox', 'Dry run'));
    const env = getByRole(form, 'combobox', 'Environment') as HTMLSelectElement;
    change(env, 'prod');
    click(getByRole(form, 'checkbox', 'b'));
    click(getByRole(form, 'button', 'Accept'));
    assert.deepEqual(h.last('elicitationAnswer'), { type: 'elicitationAnswer', sessionId: 's1', requestId: 'e1', answer: { action: 'accept', content: { name: 'web', count: 3, dry: true, env: 'prod', tags: ['b'] } } });
    click(getByRole(form, 'button', 'Decline'));
    assert.deepEqual(h.last('elicitationAnswer')?.answer, { action: 'decline' });
    click(getByRole(form, 'button', 'Cancel'));
    assert.deepEqual(h.last('elicitationAnswer')?.answer, { action: 'cancel' });
    h.unmount();
  });
});
