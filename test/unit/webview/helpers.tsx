// Accessible-name queries (a small subset of the accname algorithm: aria-labelledby, aria-label,
// <label for>, wrapping <label>, text content without aria-hidden parts) and test plumbing.
import { render } from 'preact';
import { act } from 'preact/test-utils';
import type { ChatSnapshot, SessionView } from '../../../src/shared/chatState';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../../src/shared/messages';
import type { Transcript, TranscriptItem } from '../../../src/shared/transcript';
import { App } from '../../../webview-ui/src/components/App';
import { setMarkdownBudget } from '../../../webview-ui/src/renderBudget';
import { ChatStore } from '../../../webview-ui/src/store';
import type { TranscriptOp } from '../../../src/shared/transcriptOps';

// Markdown's per-frame budget depends on machine speed; component tests render everything at once
// (the budget itself is tested in markdown.test.tsx).
setMarkdownBudget(Infinity);

function textOf(node: Node): string {
  if (node.nodeType === 3) return node.textContent ?? '';
  if (node.nodeType !== 1) return '';
  const el = node as Element;
  if (el.getAttribute('aria-hidden') === 'true') return '';
  const label = el.getAttribute('aria-label');
  if (label && el !== node.ownerDocument?.body) return label;
  let s = '';
  for (const c of Array.from(el.childNodes)) s += textOf(c);
  return s;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

export function accessibleName(el: Element): string {
  const doc = el.ownerDocument;
  const labelledby = el.getAttribute('aria-labelledby');
  if (labelledby) return norm(labelledby.split(/\s+/).map((id) => { const t = doc.getElementById(id); return t ? textOf(t) : ''; }).join(' '));
  const label = el.getAttribute('aria-label');
  if (label) return norm(label);
  if (el.id) {
    const l = doc.querySelector(`label[for="${el.id}"]`);
    if (l) return norm(textOf(l));
  }
  const wrapping = el.closest('label');
  if (wrapping) return norm(textOf(wrapping));
  if (el.tagName === 'BUTTON' || el.getAttribute('role') === 'tab' || el.getAttribute('role') === 'option') {
    let s = '';
    for (const c of Array.from(el.childNodes)) s += textOf(c);
    return norm(s);
  }
  return '';
}

export function roleOf(el: Element): string | undefined {
  const explicit = el.getAttribute('role');
  if (explicit) return explicit;
  switch (el.tagName) {
    case 'BUTTON':
      return 'button';
    case 'TEXTAREA':
      return 'textbox';
    case 'SELECT':
      return (el as HTMLSelectElement).multiple ? 'listbox' : 'combobox';
    case 'A':
      return el.hasAttribute('href') ? 'link' : undefined;
    case 'INPUT': {
      const t = (el as HTMLInputElement).type;
      if (t === 'checkbox') return 'checkbox';
      if (t === 'number') return 'spinbutton';
      if (t === 'search') return 'searchbox';
      return 'textbox';
    }
    case 'FORM':
      return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'form' : undefined;
    case 'SECTION':
      return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : undefined;
    default:
      return undefined;
  }
}

export function queryAllByRole(root: ParentNode, role: string, name?: string | RegExp): Element[] {
  return Array.from(root.querySelectorAll('*')).filter((el) => {
    if (roleOf(el) !== role) return false;
    if (name === undefined) return true;
    const n = accessibleName(el);
    return typeof name === 'string' ? n === name : name.test(n);
  });
}

export function getByRole(root: ParentNode, role: string, name?: string | RegExp): HTMLElement {
  const all = queryAllByRole(root, role, name);
  if (all.length !== 1) {
    const names = queryAllByRole(root, role).map((e) => JSON.stringify(accessibleName(e)));
    throw new Error(`expected exactly one ${role} named ${String(name)}, found ${all.length}; ${role}s: ${names.join(', ')}`);
  }
  return all[0] as HTMLElement;
}

export interface Harness {
  store: ChatStore;
  root: HTMLElement;
  posted: WebviewToHostMessage[];
  send(m: HostToWebviewMessage): void;
  /** The next ops message of a session, numbered as the host's channel numbers them since the last snapshot. */
  sendOps(sessionId: string, ops: TranscriptOp[]): void;
  flush(): void;
  /** Flush frames until nothing more is scheduled (a big transcript mounts over several frames). */
  settle(): void;
  last<T extends WebviewToHostMessage['type']>(type: T): Extract<WebviewToHostMessage, { type: T }> | undefined;
  unmount(): void;
}

export function mount(snapshot?: ChatSnapshot): Harness {
  const posted: WebviewToHostMessage[] = [];
  let state: unknown;
  const store = new ChatStore(
    { postMessage: (m) => posted.push(m), getState: () => state, setState: (s) => (state = s) },
    () => 0, // frames are flushed explicitly by the tests
  );
  const root = document.createElement('div');
  document.body.appendChild(root);
  act(() => render(<App store={store} />, root));
  const seqs = new Map<string, number>();
  const h: Harness = {
    store,
    root,
    posted,
    sendOps(sessionId, ops) {
      const seq = (seqs.get(sessionId) ?? 0) + 1;
      seqs.set(sessionId, seq);
      h.send({ type: 'transcriptOps', sessionId, seq, ops });
    },
    send(m) {
      if (m.type === 'init') seqs.clear();
      if (m.type === 'transcriptReset') seqs.delete(m.sessionId);
      act(() => {
        store.receive(m);
        store.flushNow();
      });
    },
    flush() {
      act(() => store.flushNow());
    },
    settle() {
      for (let i = 0; i < 1000 && store.framePending; i++) act(() => store.flushNow());
    },
    last(type) {
      for (let i = posted.length - 1; i >= 0; i--) if (posted[i].type === type) return posted[i] as never;
      return undefined;
    },
    unmount() {
      act(() => render(null, root));
      root.remove();
    },
  };
  store.start();
  if (snapshot) {
    h.send({ type: 'init', protocolVersion: 2, snapshot });
    h.settle();
  }
  return h;
}

export function sessionView(over: Partial<SessionView> = {}): SessionView {
  return {
    sessionId: 's1',
    agentId: 'Fake Agent',
    turn: 'idle',
    capabilities: { image: true, audio: false, embeddedContext: true },
    permissions: [],
    elicitations: [],
    queue: [],
    ...over,
  };
}

export function transcript(items: TranscriptItem[], over: Partial<Transcript> = {}): Transcript {
  return { sessionId: 's1', items, commands: [], configOptions: [], ...over };
}

export function snapshot(items: TranscriptItem[] = [], view: Partial<SessionView> = {}, t: Partial<Transcript> = {}): ChatSnapshot {
  return {
    agents: [
      { id: 'Fake Agent', name: 'Fake Agent', status: 'ready' },
      { id: 'Other Agent', name: 'Other Agent', status: 'stopped' },
    ],
    defaultAgentId: 'Fake Agent',
    sessions: [{ view: sessionView(view), transcript: transcript(items, t) }],
    activeSessionId: 's1',
    history: [],
    terminals: [],
  };
}

export function keydown(el: Element, key: string, opts: KeyboardEventInit = {}): void {
  act(() => {
    el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...opts }));
  });
}

export function typeInto(el: HTMLTextAreaElement | HTMLInputElement, value: string): void {
  act(() => {
    el.value = value;
    try {
      el.setSelectionRange?.(value.length, value.length);
    } catch {
      // number inputs have no selection
    }
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export function click(el: Element): void {
  act(() => {
    (el as HTMLElement).click();
  });
}

export function change(el: HTMLSelectElement | HTMLTextAreaElement | HTMLInputElement, value: string): void {
  act(() => {
    el.value = value;
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
