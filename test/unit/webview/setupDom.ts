// Must be the FIRST import of every webview test: installs a jsdom window as the global environment
// before Preact, DOMPurify and the components load.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!DOCTYPE html><html><body><div id="root"></div></body></html>', {
  pretendToBeVisual: true,
  url: 'https://webview.test/index.html',
});
const w = dom.window as unknown as Record<string, unknown>;
const g = globalThis as unknown as Record<string, unknown>;
for (const key of Object.getOwnPropertyNames(w)) {
  if (key in g) continue;
  try {
    g[key] = w[key];
  } catch {
    // read-only globals
  }
}
g.window = w;
g.document = dom.window.document;
g.navigator = dom.window.navigator;
for (const k of ['Event', 'KeyboardEvent', 'MouseEvent', 'InputEvent', 'FocusEvent', 'requestAnimationFrame', 'cancelAnimationFrame']) g[k] = w[k];

export { dom };
