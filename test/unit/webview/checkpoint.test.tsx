import './setupDom';
import * as assert from 'node:assert/strict';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { click, getByRole, mount, queryAllByRole, snapshot } from './helpers';

const user = (id: string, text: string): TranscriptItem => ({ kind: 'user_message', id, content: [{ type: 'text', text }] });

describe('webview: Restore checkpoint on a user message', () => {
  it('asks for the preview, lists the files with their diffs, restores with the user’s files the user ticked', () => {
    const h = mount(snapshot([user('u1', 'first'), user('u2', 'second')], { folders: ['/ws'], capabilities: { image: false, audio: false, embeddedContext: false, fork: true } }));
    const [first] = queryAllByRole(h.root, 'article', 'You');
    click(getByRole(first, 'button', 'Restore files to before this message'));
    assert.deepEqual(h.last('checkpointAction'), { type: 'checkpointAction', sessionId: 's1', itemId: 'u1', action: { kind: 'preview' } });

    h.send({ type: 'checkpoint', sessionId: 's1', itemId: 'u1', view: { phase: 'loading' } });
    assert.match(getByRole(first, 'status').textContent ?? '', /Comparing/);
    h.send({
      type: 'checkpoint',
      sessionId: 's1',
      itemId: 'u1',
      view: {
        phase: 'preview',
        files: [
          { path: '/ws/src/a.ts', action: 'revert', userEdited: false },
          { path: '/ws/new.ts', action: 'delete', userEdited: false },
          { path: '/ws/mine.ts', action: 'revert', userEdited: true },
          { path: '/ws/locked.ts', action: 'revert', userEdited: false, blocked: 'it is read-only' },
        ],
      },
    });
    const card = getByRole(first, 'group', 'Checkpoint');
    assert.equal(queryAllByRole(h.root, 'group', 'Checkpoint').length, 1, 'only on that message');
    const list = getByRole(card, 'list', 'Files to restore');
    assert.match(list.textContent ?? '', /locked\.ts.*cannot be restored: it is read-only/);
    click(getByRole(card, 'button', 'Open diff src/a.ts'));
    assert.deepEqual(h.last('checkpointAction'), { type: 'checkpointAction', sessionId: 's1', itemId: 'u1', action: { kind: 'openDiff', path: '/ws/src/a.ts' } });
    assert.match(card.textContent ?? '', /conversation is not rewound/);
    click(getByRole(card, 'button', 'Fork session'));
    assert.deepEqual(h.last('forkSession'), { type: 'forkSession', sessionId: 's1' });

    click(getByRole(card, 'checkbox'));
    click(getByRole(card, 'button', 'Restore'));
    assert.deepEqual(h.last('checkpointAction'), { type: 'checkpointAction', sessionId: 's1', itemId: 'u1', action: { kind: 'restore', include: ['/ws/mine.ts'] } });

    h.send({ type: 'checkpoint', sessionId: 's1', itemId: 'u1', view: { phase: 'restored', restored: ['/ws/src/a.ts', '/ws/new.ts', '/ws/mine.ts'], failed: [{ path: '/ws/locked.ts', reason: 'it is read-only' }], skipped: [], undoable: true } });
    assert.match(getByRole(card, 'list', 'Could not be restored').textContent ?? '', /locked\.ts: it is read-only/);
    click(getByRole(card, 'button', 'Undo restore'));
    assert.deepEqual(h.last('checkpointAction'), { type: 'checkpointAction', sessionId: 's1', itemId: 'u1', action: { kind: 'undo' } });

    click(getByRole(card, 'button', 'Close'));
    h.flush();
    assert.equal(queryAllByRole(h.root, 'group', 'Checkpoint').length, 0);
    h.unmount();
  });

  it('shows the host’s error in the card, and no Fork session where the agent cannot fork', () => {
    const h = mount(snapshot([user('u1', 'first')]));
    h.send({ type: 'checkpoint', sessionId: 's1', itemId: 'u1', view: { phase: 'error', message: 'The agent is working on a message: restore once its turn has ended, or Stop it first.' } });
    const card = getByRole(h.root, 'group', 'Checkpoint');
    assert.match(getByRole(card, 'alert').textContent ?? '', /The agent is working/);
    assert.equal(queryAllByRole(card, 'button', 'Fork session').length, 0);
    h.unmount();
  });
});
