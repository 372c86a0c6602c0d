// Module aliases for every esbuild bundle of the webview code (esbuild.mjs, and the component tests, so
// they run what ships).
//
// markdown-it 14 needs only decodeHTML/decodeHTMLStrict of `entities` but imports its 4.x root: the
// decoder's and the encoder's tables, 75 KB of the 300 KB webview budget. entities 8 (what markdown-it 15
// ships) has the same two functions over a 19 KB table. (markdown-it 14, not 15: 15's build turns every
// Token field into an Object.defineProperty call, and it renders our Markdown half as fast.)
import { fileURLToPath } from 'node:url';

export const webviewAliases = {
  entities: fileURLToPath(new URL('../node_modules/entities/dist/decode.js', import.meta.url)),
};
