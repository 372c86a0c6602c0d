// Find's model, apart from the transcript that shows it: which items' text matches, and where a match is in
// rendered text.
import './setupDom';
import * as assert from 'node:assert/strict';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { rangesOf } from '../../../webview-ui/src/find/highlight';
import { findMatches, MAX_MATCHES } from '../../../webview-ui/src/find/transcriptSearch';

const agent = (i: number, text: string): TranscriptItem => ({ kind: 'agent_message', id: `m${i}`, content: [{ type: 'text', text }] });

describe('webview: find in the transcript model', () => {
  it('counts matches in every item kind it shows as text, and stops counting at the cap', () => {
    const items: TranscriptItem[] = [
      { kind: 'tool_call', id: 't', toolCallId: 't', title: 'Run grep', toolKind: 'execute', status: 'completed', locations: [], content: [{ type: 'content', content: { type: 'text', text: 'grep output' } }], output: { text: 'grep grep', truncated: false } },
      { kind: 'plan', id: 'p', entries: [{ content: 'grep it', priority: 'high', status: 'pending' }] },
      { kind: 'turn_end', id: 'e', stopReason: 'end_turn', empty: false },
    ];
    assert.deepEqual(findMatches(items, 'GREP').map((m) => `${m.index}:${m.occurrence}`), ['0:0', '0:1', '0:2', '0:3', '1:0']);
    assert.equal(findMatches([agent(0, 'x'.repeat(MAX_MATCHES + 5))], 'x').length, MAX_MATCHES);
    assert.deepEqual(findMatches(items, ''), []);
  });

  it('finds the ranges of a query in rendered text, across elements', () => {
    const div = document.createElement('div');
    div.innerHTML = '<p>Find <b>find</b> and FIND</p>';
    assert.deepEqual(rangesOf(div, 'find').map((r) => r.toString()), ['Find', 'find', 'FIND']);
  });
});
