// "Copy" on a message posts the message's Markdown, written by the same code as the session export.
import './setupDom';
import * as assert from 'node:assert/strict';
import { contentsMarkdown } from '../../../src/shared/transcriptMarkdown';
import type { TranscriptContent } from '../../../src/shared/transcript';
import { click, getByRole, mount, snapshot } from './helpers';

describe('webview: Copy on a message', () => {
  it("posts the agent message's Markdown, links and attachments as the export writes them", () => {
    const content: TranscriptContent[] = [
      { type: 'text', text: 'See **this**:' },
      { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
    ];
    const h = mount(snapshot([{ kind: 'agent_message', id: 'a1', content }]));
    h.settle();
    click(getByRole(getByRole(h.root, 'article', 'Agent'), 'button', 'Copy'));
    const posted = h.last('copyCode');
    assert.equal(posted?.code, contentsMarkdown(content, { maxBlock: 1_000_000 }));
    assert.ok(posted?.code.startsWith('See **this**:\n\n[a.ts](file:///w/a.ts)'));
    h.unmount();
  });
});
