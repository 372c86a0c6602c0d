// The chat's "open this chip" message as the host accepts it: a URI with, optionally, the chip's kind, lines,
// text and mimeType; anything malformed is refused whole (the host then opens nothing).
import * as assert from 'node:assert/strict';
import { parseWebviewMessage } from '../../../src/shared/webviewMessageSchema';

describe('webview message: openResource (a chip opened)', () => {
  it('takes a bare URI, and a chip with its kind, lines, text and mimeType', () => {
    assert.ok(parseWebviewMessage({ type: 'openResource', uri: 'file:///ws/a.ts' }).ok);
    const full = parseWebviewMessage({ type: 'openResource', uri: 'file:///ws/a.ts', kind: 'selection', range: { startLine: 3, endLine: 9 }, text: 'x', mimeType: 'text/plain' });
    assert.ok(full.ok && full.message.type === 'openResource' && full.message.range?.endLine === 9);
    assert.ok(parseWebviewMessage({ type: 'openResource', uri: 'terminal:bash', kind: 'terminalSelection', text: '$ ls' }).ok);
  });

  it('refuses an unknown kind, lines that are not integers, a huge text or a missing URI', () => {
    for (const bad of [
      { type: 'openResource', uri: 'file:///a', kind: 'script' },
      { type: 'openResource', uri: 'file:///a', range: { startLine: 'one', endLine: 2 } },
      { type: 'openResource', uri: 'file:///a', range: { startLine: 1.5, endLine: 2 } },
      { type: 'openResource', uri: 'file:///a', text: 'x'.repeat(1_000_001) },
      { type: 'openResource', uri: 'file:///a', mimeType: 'm'.repeat(201) },
      { type: 'openResource', text: 'no uri' },
    ]) {
      assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad).slice(0, 120));
    }
  });
});
