// Session tabs (select, close, arrow keys) and the History panel (open, resume, delete, fuzzy search).
import './setupDom';
import * as assert from 'node:assert/strict';
import { accessibleName, click, getByRole, keydown, mount, queryAllByRole, snapshot, typeInto } from './helpers';

describe('webview: session tabs and history', () => {
  it('session tabs select and close; history opens, loads, resumes, deletes', () => {
    const snap = snapshot([]);
    snap.sessions.push({ view: { ...snap.sessions[0].view, sessionId: 's2', title: 'Second' }, transcript: { sessionId: 's2', items: [], commands: [], configOptions: [] } });
    snap.history = [{ id: 'h1', sessionId: 'old', agentId: 'Fake Agent', title: 'Old chat', source: 'local', canLoad: true, canResume: true, canDelete: true }];
    const h = mount(snap);
    const tabs = queryAllByRole(h.root, 'tab');
    assert.equal(tabs.length, 2);
    assert.equal(tabs[0].getAttribute('aria-selected'), 'true');
    click(getByRole(h.root, 'tab', 'Second'));
    assert.deepEqual(h.last('selectSession'), { type: 'selectSession', sessionId: 's2' });
    keydown(tabs[0], 'ArrowRight');
    assert.deepEqual(h.last('selectSession'), { type: 'selectSession', sessionId: 's2' });
    click(getByRole(h.root, 'button', 'Close session Second'));
    assert.deepEqual(h.last('closeSession'), { type: 'closeSession', sessionId: 's2' });
    const historyButton = getByRole(h.root, 'button', 'History');
    click(historyButton);
    h.flush();
    assert.equal(h.last('refreshHistory')?.type, 'refreshHistory');
    click(getByRole(h.root, 'button', 'Open Old chat'));
    assert.deepEqual(h.last('openHistory'), { type: 'openHistory', historyId: 'h1', mode: 'load' });
    click(getByRole(h.root, 'button', 'Resume Old chat'));
    assert.deepEqual(h.last('openHistory'), { type: 'openHistory', historyId: 'h1', mode: 'resume' });
    click(getByRole(h.root, 'button', 'Delete Old chat'));
    assert.deepEqual(h.last('deleteHistory'), { type: 'deleteHistory', historyId: 'h1' });
    h.unmount();
  });

  it('history search filters by title and agent, fuzzily', () => {
    const snap = snapshot([]);
    snap.history = [
      { id: 'h1', sessionId: 'a', agentId: 'Claude Agent', title: 'Refactor the parser', source: 'local', canLoad: true, canResume: false, canDelete: true },
      { id: 'h2', sessionId: 'b', agentId: 'Gemini CLI', title: 'Write release notes', source: 'agent', canLoad: true, canResume: false, canDelete: false },
    ];
    const h = mount(snap);
    click(getByRole(h.root, 'button', 'History'));
    h.flush();
    const search = getByRole(h.root, 'searchbox', 'Search history') as HTMLInputElement;
    typeInto(search, 'rfctr');
    h.flush();
    assert.ok(getByRole(h.root, 'button', 'Open Refactor the parser'));
    assert.equal(queryAllByRole(h.root, 'button').some((b) => accessibleName(b) === 'Open Write release notes'), false);
    typeInto(search, 'gemini');
    h.flush();
    assert.ok(getByRole(h.root, 'button', 'Open Write release notes'));
    typeInto(search, 'zzzz');
    h.flush();
    assert.match(h.root.textContent ?? '', /No session matches/);
    h.unmount();
  });
});
