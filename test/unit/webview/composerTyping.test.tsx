// A keystroke in the composer: the textarea already shows it, so plain text renders no component; what is
// typed is still what Enter sends, what a removed chip leaves, and what a tab switch keeps.
import './setupDom';
import * as assert from 'node:assert/strict';
import { options } from 'preact';
import type { MentionRef } from '../../../src/shared/chatState';
import { click, getByRole, keydown, mount, snapshot, typeInto } from './helpers';

type RenderHook = (vnode: unknown) => void;
/** Preact's hook before each component render (`options._render`, mangled `__r` in its build). */
const hooks = options as unknown as { __r?: RenderHook };

/** How many components render while `fn` runs. */
function rendersDuring(fn: () => void): number {
  const before = hooks.__r;
  let n = 0;
  hooks.__r = (vnode) => {
    n++;
    before?.(vnode);
  };
  try {
    fn();
  } finally {
    hooks.__r = before;
  }
  return n;
}

const box = (root: HTMLElement) => getByRole(root, 'textbox', 'Message') as HTMLTextAreaElement;
const selection: MentionRef = { kind: 'selection', uri: 'file:///w/a.ts', label: 'a.ts:3-9', range: { startLine: 3, endLine: 9 }, attached: true };

describe('webview: typing in the composer', () => {
  it('plain text renders no component, and Enter sends what was typed', () => {
    const h = mount(snapshot());
    const n = rendersDuring(() => {
      typeInto(box(h.root), 'h');
      typeInto(box(h.root), 'hello wor');
      typeInto(box(h.root), 'hello world');
    });
    assert.equal(n, 0, 'no component renders for a keystroke of plain text');
    assert.equal(h.store.ui.draft('s1').text, 'hello world', 'the store keeps the draft');
    keydown(box(h.root), 'Enter');
    assert.equal(h.last('prompt')?.prompt.text, 'hello world');
    assert.equal(box(h.root).value, '', 'the box is emptied after sending');
    h.unmount();
  });

  it('renders when the command hint changes: shown for /name, gone when more is typed', () => {
    const h = mount(snapshot([], {}, { commands: [{ name: 'review', description: 'Review changes', inputHint: 'what to review' }] }));
    assert.ok(rendersDuring(() => typeInto(box(h.root), '/review ')) > 0, 'the hint appearing renders the composer');
    assert.match(h.root.querySelector('.input-hint')?.textContent ?? '', /what to review/);
    typeInto(box(h.root), '/review this file');
    assert.equal(h.root.querySelector('.input-hint'), null);
    h.unmount();
  });

  it('removing a chip after typing keeps the text typed since the last render', () => {
    const h = mount(snapshot());
    h.send({ type: 'focusComposer', mentions: [selection] });
    h.flush();
    typeInto(box(h.root), 'explain');
    typeInto(box(h.root), 'explain this');
    click(getByRole(h.root, 'button', 'Remove a.ts:3-9'));
    assert.equal(box(h.root).value, 'explain this');
    keydown(box(h.root), 'Enter');
    assert.deepEqual(h.last('prompt')?.prompt, { text: 'explain this', mentions: [], images: [] });
    h.unmount();
  });

  it('a tab switch shows the other tab’s draft and keeps this one', () => {
    const snap = snapshot();
    snap.sessions.push({ view: { ...snap.sessions[0].view, sessionId: 's2', title: 'Second' }, transcript: { sessionId: 's2', items: [], commands: [], configOptions: [] } });
    const h = mount(snap);
    typeInto(box(h.root), 'first tab text');
    h.send({ type: 'activeSession', sessionId: 's2' });
    assert.equal(box(h.root).value, '');
    typeInto(box(h.root), 'second');
    h.send({ type: 'activeSession', sessionId: 's1' });
    assert.equal(box(h.root).value, 'first tab text');
    h.unmount();
  });
});

describe('webview: which composer keys reach the workbench', () => {
  /** The keys that bubble up to the webview's window, where VS Code's preload forwards them to the workbench. */
  function forwarded(root: HTMLElement, keys: Array<[type: 'keydown' | 'keyup', key: string, init?: KeyboardEventInit]>): string[] {
    const seen: string[] = [];
    const listener = (e: Event) => {
      const k = e as KeyboardEvent;
      seen.push(`${e.type} ${k.ctrlKey ? 'Ctrl+' : ''}${k.shiftKey ? 'Shift+' : ''}${k.key}`);
    };
    window.addEventListener('keydown', listener);
    window.addEventListener('keyup', listener);
    try {
      for (const [type, key, init] of keys) {
        const code = key.length === 1 ? `Key${key.toUpperCase()}` : key;
        box(root).dispatchEvent(new KeyboardEvent(type, { key, code, bubbles: true, cancelable: true, ...init }));
      }
    } finally {
      window.removeEventListener('keydown', listener);
      window.removeEventListener('keyup', listener);
    }
    return seen;
  }

  it('plain printable keys stay in the composer; Escape, F-keys, Enter and combinations are forwarded', () => {
    const h = mount(snapshot());
    const seen = forwarded(h.root, [
      ['keydown', 'a'],
      ['keyup', 'a'],
      ['keydown', ' '],
      ['keyup', ' '],
      ['keydown', 'A', { shiftKey: true }],
      ['keydown', 'p', { ctrlKey: true, shiftKey: true }],
      ['keydown', 'F1'],
      ['keydown', 'Escape'],
      ['keyup', 'Escape'],
      ['keydown', 'ArrowLeft'],
      ['keydown', 'é', { altKey: true }],
    ]);
    assert.deepEqual(seen, ['keydown Shift+A', 'keydown Ctrl+Shift+p', 'keydown F1', 'keydown Escape', 'keyup Escape', 'keydown ArrowLeft', 'keydown é']);
    h.unmount();
  });

  it('the key after a Ctrl combination is forwarded: it can finish a chord (Ctrl+K V)', () => {
    const h = mount(snapshot());
    const seen = forwarded(h.root, [
      ['keydown', 'Control', { ctrlKey: true }],
      ['keydown', 'k', { ctrlKey: true }],
      ['keyup', 'k', { ctrlKey: true }],
      ['keyup', 'Control'],
      ['keydown', 'v'],
      ['keyup', 'v'],
      ['keydown', 'w'],
      ['keyup', 'w'],
    ]);
    assert.deepEqual(seen, ['keydown Ctrl+Control', 'keydown Ctrl+k', 'keyup Ctrl+k', 'keyup Control', 'keydown v', 'keyup v']);
    h.unmount();
  });

  it('Enter still sends after keys kept in the composer', () => {
    const h = mount(snapshot());
    forwarded(h.root, [['keydown', 'h'], ['keyup', 'h']]);
    typeInto(box(h.root), 'h');
    keydown(box(h.root), 'Enter');
    assert.equal(h.last('prompt')?.prompt.text, 'h');
    h.unmount();
  });
});
