// Add to Chat's chips in the composer: the host's focusComposer puts them (and a notice of what was not
// added) in the active session's composer, in the session Add to Chat opened; they
// are removable; Send sends them with or without text naming them, and nothing is sent before Send.
import './setupDom';
import * as assert from 'node:assert/strict';
import type { MentionRef } from '../../../src/shared/chatState';
import { click, getByRole, keydown, mount, queryAllByRole, sessionView, snapshot, typeInto } from './helpers';

const selection: MentionRef = { kind: 'selection', uri: 'file:///w/a.ts', label: 'a.ts:3-9', range: { startLine: 3, endLine: 9 }, attached: true };
const terminal: MentionRef = { kind: 'terminalSelection', uri: 'terminal:bash', label: 'bash (2 lines)', text: '$ ls\nREADME.md', attached: true };

describe('webview: Add to Chat chips', () => {
  it('shows the chips in the session that just opened, removable, and sends them with the text on Send only', () => {
    const h = mount({ ...snapshot(), sessions: [], activeSessionId: undefined });
    // The session Add to Chat opened, then the chips.
    h.send({ type: 'batch', messages: [{ type: 'session', session: sessionView({ sessionId: 's2' }) }, { type: 'activeSession', sessionId: 's2' }] });
    h.send({ type: 'focusComposer', mentions: [selection, terminal] });
    h.flush();
    const chips = () => Array.from(h.root.querySelectorAll('ul[aria-label="Attachments"] li')).map((li) => li.textContent?.trim());
    assert.deepEqual(chips(), ['a.ts:3-9', 'bash (2 lines)']);
    assert.equal(h.last('prompt'), undefined, 'nothing is sent before Send');

    click(getByRole(h.root, 'button', 'Remove bash (2 lines)'));
    assert.deepEqual(chips(), ['a.ts:3-9']);
    const box = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    typeInto(box, 'explain this');
    keydown(box, 'Enter');
    assert.deepEqual(h.last('prompt'), { type: 'prompt', sessionId: 's2', prompt: { text: 'explain this', mentions: [selection], images: [] } });
    assert.deepEqual(chips(), []);
  });

  it('a chip opens what it names: the host gets its kind, lines and the text it carries', () => {
    const h = mount(snapshot());
    h.send({ type: 'focusComposer', mentions: [selection, terminal] });
    h.flush();
    click(getByRole(h.root, 'button', 'Open a.ts:3-9'));
    assert.deepEqual(h.last('openResource'), { type: 'openResource', uri: 'file:///w/a.ts', kind: 'selection', range: { startLine: 3, endLine: 9 }, text: undefined });
    click(getByRole(h.root, 'button', 'Open bash (2 lines)'));
    assert.deepEqual(h.last('openResource'), { type: 'openResource', uri: 'terminal:bash', kind: 'terminalSelection', range: undefined, text: '$ ls\nREADME.md' });
    assert.equal(h.last('prompt'), undefined, 'opening sends nothing');
  });

  it('says what was not added until dismissed', () => {
    const h = mount(snapshot());
    h.send({ type: 'focusComposer', mentions: [], notice: 'image.bin was not added: it is a binary file.' });
    h.flush();
    const alert = queryAllByRole(h.root, 'alert').find((e) => /image\.bin was not added/.test(e.textContent ?? ''));
    assert.ok(alert, 'the notice is shown as an alert');
    click(getByRole(h.root, 'button', 'Dismiss notice'));
    assert.equal(queryAllByRole(h.root, 'alert').filter((e) => /image\.bin/.test(e.textContent ?? '')).length, 0);
  });
});
