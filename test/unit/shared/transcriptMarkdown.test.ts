import * as assert from 'assert';
import { emptyTranscript, type Transcript } from '../../../src/shared/transcript';
import { MAX_EXPORT_BLOCK, contentsMarkdown, itemMarkdown, transcriptMarkdown } from '../../../src/shared/transcriptMarkdown';

function session(): Transcript {
  const t = emptyTranscript('s1');
  t.title = 'Fix the parser';
  t.items = [
    { kind: 'user_message', id: 'u1', content: [{ type: 'text', text: 'Please fix it' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }] },
    { kind: 'thought', id: 'th', content: [{ type: 'text', text: 'line one\nline two' }] },
    { kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'Done: see `parse()`.' }] },
    {
      kind: 'tool_call',
      id: 't1',
      toolCallId: 'c1',
      title: 'Edit parser.ts',
      toolKind: 'edit',
      status: 'completed',
      locations: [{ path: '/w/parser.ts', line: 3 }],
      content: [{ type: 'diff', path: '/w/parser.ts', oldText: 'a\nb', newText: 'a\nc' }],
    },
    {
      kind: 'tool_call',
      id: 't2',
      toolCallId: 'c2',
      title: 'Run tests',
      toolKind: 'execute',
      status: 'in_progress',
      unfinished: 'end_turn',
      locations: [],
      content: [],
      output: { text: '\x1b[32mok\x1b[0m ```\n', truncated: true, exitCode: 0 },
    },
    { kind: 'plan', id: 'p', entries: [{ content: 'read', priority: 'high', status: 'completed' }, { content: 'write', priority: 'low', status: 'in_progress' }] },
    { kind: 'turn_end', id: 'e1', stopReason: 'end_turn', empty: false },
    { kind: 'error', id: 'x', message: 'The agent crashed', detail: 'exit 3' },
  ];
  return t;
}

describe('shared: a transcript as Markdown (export and copy)', () => {
  it('writes every message, tool call, diff, output and plan in order, under the title and agent', () => {
    const md = transcriptMarkdown(session(), { agentName: 'Claude Agent' });
    const order = ['# Fix the parser', 'Agent: Claude Agent', '## You', 'Please fix it', '*[image: image/png, 3 bytes, not exported]*', '> *Thought:* line one\n> line two', '## Claude Agent', 'Done: see `parse()`.', '### Tool: Edit parser.ts (edit, completed)', '- /w/parser.ts:3', '-b\n+a\n+c', '### Tool: Run tests (execute, no result (end_turn))', 'ok ```', 'the start of this output was not kept', 'Exit code 0', '### Plan', '- [x] read', '- [ ] write (in progress)', '**Error:** The agent crashed'];
    let at = 0;
    for (const piece of order) {
      const i = md.indexOf(piece, at);
      assert.ok(i >= 0, `missing or out of order: ${JSON.stringify(piece)}\n${md}`);
      at = i + piece.length;
    }
    assert.ok(!md.includes('\x1b'), 'ANSI escapes are stripped');
    assert.ok(!md.includes('AAAA'), 'image data is not exported');
  });

  it('fences output containing backticks with a longer fence, so it cannot close the block early', () => {
    const md = itemMarkdown(session().items[4]);
    assert.match(md, /^````text$/m);
  });

  it('cuts a 1 MB tool output to the block limit and says how much it cut', () => {
    const big = 'x'.repeat(1_000_000);
    const md = itemMarkdown({ kind: 'tool_call', id: 't', toolCallId: 'c', title: 'Dump', toolKind: 'read', status: 'completed', locations: [], content: [{ type: 'content', content: { type: 'text', text: big } }] });
    assert.ok(md.length < MAX_EXPORT_BLOCK + 500, `export is bounded (${md.length})`);
    assert.match(md, /980,000 more characters cut from the export/);
  });

  it('a turn end says nothing unless it stopped early or was empty', () => {
    assert.strictEqual(itemMarkdown({ kind: 'turn_end', id: 'e', stopReason: 'end_turn', empty: false }), '');
    assert.match(itemMarkdown({ kind: 'turn_end', id: 'e', stopReason: 'cancelled', empty: false }), /Turn ended: cancelled/);
    assert.match(itemMarkdown({ kind: 'turn_end', id: 'e', stopReason: 'end_turn', empty: true }), /no response/);
  });

  it('an empty session still has its heading', () => {
    assert.strictEqual(transcriptMarkdown(emptyTranscript('s')), '# Switchboard session\n');
  });
});

describe('shared: a message copied is the message exported', () => {
  it("contentsMarkdown is the body of the message's section in the export, attachments included", () => {
    const content = session().items[0];
    assert.ok(content.kind === 'user_message');
    const copied = contentsMarkdown(content.content);
    assert.strictEqual(itemMarkdown(content), `## You\n\n${copied}`);
    assert.ok(copied.includes('Please fix it') && copied.includes('*[image: image/png'));
    assert.strictEqual(contentsMarkdown([]), '');
  });
});
