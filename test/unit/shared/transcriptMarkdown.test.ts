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
    const order = ['# Fix the parser', 'Agent: Claude Agent', '## You', 'Please fix it', '*[image: image/png, 3 bytes, not exported]*', '> *Thought:* line one\n> line two', '## Claude Agent', 'Done: see `parse()`.', '### Tool: Edit parser.ts (edit, completed)', '- /w/parser.ts:3', '-b\n+a\n+c', '### Tool: Run tests (execute, no result (end_turn))', '… (the start of this output was not kept)', 'ok ```', 'Exit code 0', '### Plan', '- [x] read', '- [ ] write (in progress)', '**Error:** The agent crashed'];
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

  it("keeps the end of a 1 MB command output and says before the block, outside it, what was cut", () => {
    const big = `first line\n${'y'.repeat(1_000_000)}\nlast line\n`;
    const md = itemMarkdown({ kind: 'tool_call', id: 't', toolCallId: 'c', title: 'Run', toolKind: 'execute', status: 'completed', locations: [], content: [], output: { text: big, truncated: true, exitCode: 1 } });
    assert.ok(md.length < MAX_EXPORT_BLOCK + 500, `export is bounded (${md.length})`);
    assert.ok(!md.includes('first line') && md.includes('last line\n```\nExit code 1'), 'the end of the output is kept');
    const note = `… (the start of this output was not kept; ${(big.length - MAX_EXPORT_BLOCK).toLocaleString('en-US')} more characters cut from its start in the export)`;
    assert.ok(md.includes(`${note}\n\`\`\`text\n`), `the cut is said just before the block:\n${md.slice(0, 300)}`);
  });

  it("writes an image as a line with its decoded size (padding not counted), never its data", () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const md = contentsMarkdown([{ type: 'image', mimeType: 'image/png', data: png }, { type: 'image', mimeType: 'image/gif', data: 'R0lGODk=' }]);
    assert.strictEqual(md, `*[image: image/png, ${Buffer.from(png, 'base64').length} bytes, not exported]*\n\n*[image: image/gif, 5 bytes, not exported]*`);
  });

  it("writes a shell's output sent also as a text block once, as the chat shows it", () => {
    const printed = 'line-1\nline-2\n';
    const md = itemMarkdown({ kind: 'tool_call', id: 't', toolCallId: 'c', title: 'List', toolKind: 'execute', status: 'completed', locations: [], content: [{ type: 'content', content: { type: 'text', text: printed } }], output: { text: printed, truncated: false, exitCode: 0 } });
    assert.strictEqual(md.split('line-2').length - 1, 1, md);
    assert.match(md, /```text\nline-1\nline-2\n```\nExit code 0/);
  });

  it('says a cut of a long diff after its block, not inside it', () => {
    const md = itemMarkdown({ kind: 'tool_call', id: 't', toolCallId: 'c', title: 'Edit', toolKind: 'edit', status: 'completed', locations: [], content: [{ type: 'diff', path: '/w/a.ts', oldText: null, newText: 'z'.repeat(100) }] }, { maxBlock: 50 });
    assert.match(md, /\n```\n… \(\d+ more characters cut from the export\)$/);
  });

  it('a turn end says nothing unless it stopped early or was empty', () => {
    assert.strictEqual(itemMarkdown({ kind: 'turn_end', id: 'e', stopReason: 'end_turn', empty: false }), '');
    assert.match(itemMarkdown({ kind: 'turn_end', id: 'e', stopReason: 'cancelled', empty: false }), /Turn ended: cancelled/);
    assert.match(itemMarkdown({ kind: 'turn_end', id: 'e', stopReason: 'end_turn', empty: true }), /no response/);
  });

  it("writes a subagent's own transcript quoted under its heading, with its tool calls, and a nest in it quoted deeper", () => {
    const child = emptyTranscript('c1');
    const grandchild = emptyTranscript('c2');
    grandchild.items = [{ kind: 'agent_message', id: 'g1', content: [{ type: 'text', text: 'deep work' }] }];
    child.items = [
      { kind: 'session_message', id: 'm1', messageId: 'toolu_1', senderSessionId: 's1', recipientSessionId: 'c1', content: [{ type: 'text', text: 'Find the tests' }] },
      { kind: 'tool_call', id: 'r', toolCallId: 'r1', title: 'Read README.md', toolKind: 'read', status: 'completed', locations: [], content: [{ type: 'diff', path: '/w/a.ts', oldText: 'x', newText: 'y' }] },
      { kind: 'agent_message', id: 'a', content: [{ type: 'text', text: 'child done\nsecond line' }] },
      { kind: 'subagent', id: 'n2', sessionId: 'c2', title: 'Deeper', state: { state: 'running' }, transcript: grandchild },
    ];
    const t = emptyTranscript('s1');
    t.items = [
      { kind: 'user_message', id: 'u', content: [{ type: 'text', text: 'go' }] },
      { kind: 'subagent', id: 'n1', sessionId: 'c1', title: 'Explore the code', description: 'Explore', state: { state: 'idle', stopReason: 'end_turn' }, transcript: child },
      { kind: 'subagent', id: 'n3', sessionId: 'ghost', unannounced: true, state: { state: 'idle', stopReason: 'cancelled' }, transcript: emptyTranscript('ghost') },
      { kind: 'agent_message', id: 'b', content: [{ type: 'text', text: 'parent again' }] },
    ];
    const md = transcriptMarkdown(t, { agentName: 'Claude Agent' });
    const order = ['## You', '> ### Subagent: Explore the code (finished)', '> *Explore*', 'Find the tests', '> ### Tool: Read README.md (read, completed)', '> ```diff\n> --- a//w/a.ts', '> ## Explore the code\n>\n> child done\n> second line', '> > ### Subagent: Deeper (running)', '> > ## Deeper\n> >\n> > deep work', '> ### Subagent: Unknown subagent (cancelled)', '## Claude Agent\n\nparent again'];
    let at = 0;
    for (const piece of order) {
      const i = md.indexOf(piece, at);
      assert.ok(i >= 0, `missing or out of order: ${JSON.stringify(piece)}\n${md}`);
      at = i + piece.length;
    }
    const nest = md.slice(md.indexOf('> ### Subagent: Explore'), md.indexOf('## Claude Agent'));
    assert.ok(nest.split('\n').every((l) => l === '' || l.startsWith('>')), `every line of the nest is quoted:\n${nest}`);
  });

  it('an empty session still has its heading', () => {
    assert.strictEqual(transcriptMarkdown(emptyTranscript('s')), '# Switchboard session\n');
  });

  it("is headed by the title the session's tab shows when the caller gives it", () => {
    assert.ok(transcriptMarkdown(session(), { title: 'Please fix it' }).startsWith('# Please fix it\n'));
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
