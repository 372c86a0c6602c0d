import './setupDom';
import * as assert from 'node:assert/strict';
import type { ChangedFileView } from '../../../src/shared/chatState';
import { click, getByRole, mount, queryAllByRole, sessionView, snapshot } from './helpers';

const FILES: ChangedFileView[] = [
  { key: 'k1', path: '/ws/src/app.ts', name: 'src/app.ts', status: 'modified', added: 3, removed: 1, countsKnown: true, conflict: false, undoable: true },
  { key: 'k2', path: '/ws/new.txt', name: 'new.txt', status: 'created', added: 5, removed: 0, countsKnown: true, conflict: true, undoable: true },
  { key: 'k3', path: '/ws/logo.png', name: 'logo.png', status: 'modified', added: 0, removed: 0, countsKnown: false, conflict: false, undoable: false, note: 'binary file' },
];

describe('webview: changed files panel', () => {
  it('is absent when the session has no changed files', () => {
    const h = mount(snapshot([]));
    assert.equal(queryAllByRole(h.root, 'region', 'Changed files').length, 0);
    h.unmount();
  });

  it('lists files with counts and a conflict badge, and posts per-file and all actions', () => {
    const h = mount(snapshot([], { changedFiles: FILES }));
    const region = getByRole(h.root, 'region', 'Changed files');
    assert.match(region.textContent ?? '', /3 files changed/);
    assert.match(region.textContent ?? '', /\+8/);
    const app = region.querySelector('li.changed-file') as HTMLElement;
    assert.match(app.textContent ?? '', /app\.ts/);
    assert.match(app.querySelector('.added')?.textContent ?? '', /\+3/);
    assert.match(app.querySelector('.removed')?.textContent ?? '', /−1/);
    assert.equal(region.querySelectorAll('.conflict-badge').length, 1);
    assert.match(region.textContent ?? '', /binary file/);

    click(getByRole(region, 'button', 'Open diff src/app.ts'));
    assert.deepEqual(h.last('changedFileAction'), { type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'open' });
    click(getByRole(region, 'button', 'Keep new.txt'));
    assert.deepEqual(h.last('changedFileAction'), { type: 'changedFileAction', sessionId: 's1', key: 'k2', action: 'keep' });
    click(getByRole(region, 'button', 'Undo src/app.ts'));
    assert.deepEqual(h.last('changedFileAction'), { type: 'changedFileAction', sessionId: 's1', key: 'k1', action: 'undo' });

    const undoLogo = getByRole(region, 'button', 'Undo logo.png') as HTMLButtonElement;
    assert.equal(undoLogo.disabled, true, 'a change with unknown prior content cannot be undone');

    click(getByRole(region, 'button', 'Keep All'));
    assert.deepEqual(h.last('changedFilesAll'), { type: 'changedFilesAll', sessionId: 's1', action: 'keep' });
    click(getByRole(region, 'button', 'Undo All'));
    assert.deepEqual(h.last('changedFilesAll'), { type: 'changedFilesAll', sessionId: 's1', action: 'undo' });

    // All controls are native buttons (keyboard reachable) and none is removed from the tab order.
    for (const b of queryAllByRole(region, 'button')) assert.notEqual(b.getAttribute('tabindex'), '-1');
    h.unmount();
  });

  it('updates when the host sends a new session view, and disappears when all are kept', () => {
    const h = mount(snapshot([], { changedFiles: FILES }));
    h.send({ type: 'session', session: sessionView({ changedFiles: [FILES[0]] }) });
    assert.match(getByRole(h.root, 'region', 'Changed files').textContent ?? '', /1 file changed/);
    h.send({ type: 'session', session: sessionView() });
    assert.equal(queryAllByRole(h.root, 'region', 'Changed files').length, 0);
    h.unmount();
  });

  it('keeps the name of a file that cannot be undone readable: its note goes on a line of its own', () => {
    const note = 'The agent changed this file with its own tools before Switchboard saw it, so it can be kept but not undone.';
    const h = mount(snapshot([], { changedFiles: [{ ...FILES[2], key: 'k4', path: '/ws/docs/hello.txt', name: 'docs/hello.txt', note }] }));
    const row = getByRole(h.root, 'region', 'Changed files').querySelector('li.changed-file')!;
    const name = row.querySelector('.changed-file-name')!;
    assert.equal(name.querySelector('.changed-file-base')!.textContent, 'hello.txt');
    assert.equal(name.textContent!.includes(note), false, 'the note is not beside the name');
    assert.equal(row.querySelector('.diff-stat'), null, 'nor in the line counts\' place');
    assert.equal(row.querySelector('.changed-file-note')!.textContent, note);
    assert.equal(getByRole(row, 'button', 'Undo docs/hello.txt').getAttribute('title'), note);
    h.unmount();
  });
});
