import './setupDom';
import * as assert from 'node:assert/strict';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { accessibleName, change, click, getByRole, keydown, mount, queryAllByRole, snapshot, typeInto, type Harness } from './helpers';

const ALL_ITEMS: TranscriptItem[] = [
  { kind: 'user_message', id: 'u1', content: [{ type: 'text', text: 'Please fix the bug' }] },
  { kind: 'thought', id: 'th1', content: [{ type: 'text', text: 'Let me think about it' }] },
  { kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'Here is **the** fix:\n\n```ts\nconst x = 1;\n```\n\nSee [docs](https://example.com) or [evil](command:workbench.action.quit).' }] },
  {
    kind: 'tool_call', id: 't1', toolCallId: 'tc1', title: 'Edit src/app.ts', toolKind: 'edit', status: 'completed',
    locations: [{ path: '/ws/src/app.ts', line: 3 }],
    content: [
      { type: 'diff', path: '/ws/src/app.ts', oldText: 'a\nb\nc', newText: 'a\nB\nc' },
      { type: 'content', content: { type: 'text', text: 'edited' } },
      { type: 'content', content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'content', content: { type: 'resource_link', uri: 'file:///ws/README.md', name: 'README.md' } },
    ],
  },
  {
    kind: 'tool_call', id: 't2', toolCallId: 'tc2', title: 'Run npm test', toolKind: 'execute', status: 'in_progress',
    locations: [], content: [{ type: 'terminal', terminalId: 'term1' }], rawInput: { command: 'npm test' },
  },
  { kind: 'plan', id: 'p1', entries: [
    { content: 'Write the test', priority: 'high', status: 'completed' },
    { content: 'Fix the bug', priority: 'medium', status: 'in_progress' },
  ] },
  { kind: 'notice', id: 'n1', severity: 'warning', title: 'Rate limited', description: 'Retrying in 5s' },
  { kind: 'compaction', id: 'c1', compactionId: 'cc', status: 'completed', summary: [{ type: 'text', text: 'Summary of the chat' }] },
  { kind: 'unsupported', id: 'x1', updateType: 'future_thing', raw: { sessionUpdate: 'future_thing', secret: 42 } },
  { kind: 'error', id: 'e1', message: 'Prompt failed', detail: 'stack...' },
  { kind: 'turn_end', id: 'te1', stopReason: 'max_tokens', empty: false },
  { kind: 'turn_end', id: 'te2', stopReason: 'end_turn', empty: true },
  { kind: 'turn_end', id: 'te3', stopReason: 'refusal', empty: false },
  { kind: 'turn_end', id: 'te4', stopReason: 'cancelled', empty: false },
];

describe('webview: rendering every transcript item', () => {
  let h: Harness;
  beforeEach(() => {
    const snap = snapshot(ALL_ITEMS, {}, {
      modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'plan', name: 'Plan' }] },
      models: { currentModelId: 'm1', availableModels: [{ modelId: 'm1', name: 'Model One' }, { modelId: 'm2', name: 'Model Two' }] },
      usage: { used: 12_000, size: 200_000, cost: { amount: 0.12, currency: 'USD' } },
      title: 'Fixing the bug',
    });
    snap.terminals = [{ terminalId: 'term1', output: 'running tests\n' }];
    h = mount(snap);
  });
  afterEach(() => h.unmount());

  it('has the transcript as a polite live log', () => {
    const log = getByRole(h.root, 'log', 'Transcript');
    assert.equal(log.getAttribute('aria-live'), 'polite');
  });

  it('renders user and agent messages as Markdown, thoughts collapsed', () => {
    assert.match(h.root.textContent!, /Please fix the bug/);
    const strong = h.root.querySelector('.message.agent strong');
    assert.equal(strong?.textContent, 'the');
    assert.doesNotMatch(h.root.textContent!, /Let me think about it/);
    const toggle = getByRole(h.root, 'button', 'Thinking');
    assert.equal(toggle.getAttribute('aria-expanded'), 'false');
    click(toggle);
    assert.match(h.root.textContent!, /Let me think about it/);
    assert.equal(getByRole(h.root, 'button', 'Thinking').getAttribute('aria-expanded'), 'true');
  });

  it('tool calls are groups named by their title, with status, locations, diff preview and content', () => {
    const edit = getByRole(h.root, 'group', 'Edit src/app.ts');
    assert.match(edit.textContent!, /Completed/);
    assert.match(edit.textContent!, /\+1/);
    assert.ok(edit.querySelector('.diff-del')?.textContent?.includes('b'));
    assert.ok(edit.querySelector('.diff-add')?.textContent?.includes('B'));
    assert.ok(edit.querySelector('img.content-image')?.getAttribute('src')?.startsWith('data:image/png;base64,'));
    click(getByRole(edit, 'button', 'Open diff'));
    assert.deepEqual(h.last('openDiff'), { type: 'openDiff', sessionId: 's1', toolCallId: 'tc1', path: '/ws/src/app.ts' });
    click(getByRole(edit, 'button', 'Open /ws/src/app.ts at line 3'));
    assert.deepEqual(h.last('openLocation'), { type: 'openLocation', path: '/ws/src/app.ts', line: 3 });
    click(getByRole(edit, 'button', 'README.md'));
    assert.deepEqual(h.last('openResource'), { type: 'openResource', uri: 'file:///ws/README.md' });
  });

  it('streams terminal output into the execute card', () => {
    const run = getByRole(h.root, 'group', 'Run npm test');
    assert.match(run.textContent!, /Running/);
    assert.match(run.textContent!, /\$ npm test/);
    assert.match(run.querySelector('.terminal-output')!.textContent!, /running tests/);
    h.send({ type: 'terminalOutput', terminalId: 'term1', data: '3 passing\n', exitStatus: { exitCode: 0 } });
    const out = getByRole(h.root, 'group', 'Run npm test');
    assert.match(out.querySelector('.terminal-output')!.textContent!, /running tests\n3 passing/);
    assert.match(out.textContent!, /Exited with code 0/);
  });

  it('a tool call its turn ended without a result is not shown running: "No result", or "Cancelled" after Stop', () => {
    const call = (id: string, title: string, unfinished: string) =>
      ({ kind: 'tool_call', id, toolCallId: id, title, toolKind: 'execute', status: 'in_progress', content: [], locations: [], unfinished }) as const;
    const m = mount(snapshot([call('t1', 'Run ls', 'end_turn'), call('t2', 'Run make', 'cancelled')]));
    const ended = getByRole(m.root, 'group', 'Run ls');
    assert.match(ended.textContent!, /No result/);
    assert.doesNotMatch(ended.textContent!, /Running/);
    assert.equal(ended.querySelector('.codicon-loading'), null, 'no spinner');
    assert.match(ended.querySelector('.tool-status')!.getAttribute('title')!, /ended its turn without reporting/);
    assert.match(getByRole(m.root, 'group', 'Run make').textContent!, /Cancelled/);
    m.unmount();
  });

  it('shows a message from another session as a message, not as an unsupported update', () => {
    const m = mount(snapshot([{ kind: 'session_message', id: 'sm', messageId: 'm1', senderSessionId: 'planner', content: [{ type: 'text', text: 'Plan is ready.' }] }]));
    const article = getByRole(m.root, 'article', 'Message from session planner');
    assert.match(article.textContent!, /Plan is ready\./);
    assert.equal(m.root.textContent!.includes('Unsupported'), false);
    m.unmount();
  });

  it("shows the turn's token usage at its end", () => {
    const u = mount(snapshot([
      { kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'Done.' }] },
      { kind: 'turn_end', id: 'e1', stopReason: 'end_turn', empty: false, usage: { inputTokens: 12_400, outputTokens: 310, totalTokens: 12_710, cachedReadTokens: 9000 } },
    ]));
    assert.equal(u.root.querySelector('.turn-usage')?.textContent, 'This turn: 13k tokens: 12k in, 310 out (9.0k cached)');
    u.unmount();
  });

  it('shows the output of a shell the agent ran itself, and the command as it ran (quoted argv)', () => {
    const own = mount(snapshot([
      { kind: 'tool_call', id: 'c1', toolCallId: 'call_7', title: 'echo hi && wc -l notes.txt', toolKind: 'execute', status: 'completed', locations: [],
        content: [{ type: 'terminal', terminalId: 'call_7' }],
        rawInput: { command: ['/bin/bash', '-lc', "echo hi && wc -l 'my notes.txt'"] },
        output: { text: '\u001b[32mhi\u001b[0m\n3 my notes.txt\n', truncated: false, exitCode: 0 } },
    ]));
    const card = getByRole(own.root, 'group', 'echo hi && wc -l notes.txt');
    assert.equal(card.querySelector('.tool-command')!.textContent, "$ /bin/bash -lc 'echo hi && wc -l '\\''my notes.txt'\\'''");
    const outputs = card.querySelectorAll('.terminal-output');
    assert.equal(outputs.length, 1, 'the agent-side terminal is not shown a second time, empty');
    assert.equal(outputs[0].getAttribute('aria-label'), 'Output of echo hi && wc -l notes.txt');
    assert.equal(outputs[0].textContent, 'hi\n3 my notes.txt\n', 'ANSI stripped');
    assert.match(card.textContent!, /Exited with code 0/);
    own.unmount();
  });

  it('renders plan, notice, compaction, unsupported (raw JSON collapsed), error and stop reasons', () => {
    const plan = getByRole(h.root, 'group', 'Plan');
    assert.match(plan.textContent!, /Write the test/);
    assert.match(plan.textContent!, /high/);
    assert.match(plan.textContent!, /1 of 2 done/);
    assert.match(h.root.textContent!, /Rate limited/);
    assert.match(h.root.textContent!, /Context compacted/);
    assert.match(h.root.textContent!, /Unsupported update: future_thing/);
    assert.doesNotMatch(h.root.textContent!, /"secret": 42/);
    click(getByRole(h.root, 'button', /Unsupported update: future_thing/));
    assert.match(h.root.textContent!, /"secret": 42/);
    assert.match(h.root.textContent!, /Prompt failed/);
    assert.match(h.root.textContent!, /The agent returned no response\./);
    assert.match(h.root.textContent!, /maximum number of tokens/);
    assert.match(h.root.textContent!, /refused/);
    assert.match(h.root.textContent!, /Cancelled\./);
  });

  it('shows who the agent is signed in as, with Sign out (gone once it says it is signed out)', () => {
    const snap = snapshot([]);
    snap.agents[0] = { ...snap.agents[0], account: { signedIn: true, label: 'Fake API key', detail: 'env' } };
    const m = mount(snap);
    assert.match(m.root.querySelector('.agent-account')!.textContent!, /Fake API key/);
    click(getByRole(m.root, 'button', 'Sign out'));
    assert.deepEqual(m.last('logout'), { type: 'logout', agentId: 'Fake Agent' });
    m.send({ type: 'agents', agents: [{ ...snap.agents[0], account: { signedIn: false, label: 'Not signed in' } }, snap.agents[1]], defaultAgentId: 'Fake Agent' });
    assert.match(m.root.querySelector('.agent-account')!.textContent!, /Not signed in/);
    assert.equal(m.root.querySelector('.agent-account button'), null);
    m.unmount();
  });

  it('shows session title, usage meter and pickers named Agent, Mode, Model', () => {
    assert.match(h.root.querySelector('.session-title')!.textContent!, /Fixing the bug/);
    const meter = getByRole(h.root, 'meter', 'Context usage');
    assert.equal(meter.getAttribute('aria-valuetext'), '12k of 200k tokens · 0.12 USD');
    const agent = getByRole(h.root, 'combobox', 'Agent') as HTMLSelectElement;
    assert.equal(agent.value, 'Fake Agent');
    const mode = getByRole(h.root, 'combobox', 'Mode') as HTMLSelectElement;
    assert.equal(mode.value, 'default');
    change(mode, 'plan');
    assert.deepEqual(h.last('setMode'), { type: 'setMode', sessionId: 's1', modeId: 'plan' });
    const model = getByRole(h.root, 'combobox', 'Model') as HTMLSelectElement;
    change(model, 'm2');
    assert.deepEqual(h.last('setModel'), { type: 'setModel', sessionId: 's1', modelId: 'm2' });
  });

  it('code block buttons and links post to the host; command: links are not links', () => {
    click(getByRole(h.root, 'button', 'Copy code'));
    assert.deepEqual(h.last('copyCode'), { type: 'copyCode', code: 'const x = 1;\n' });
    click(getByRole(h.root, 'button', 'Insert code at cursor'));
    assert.deepEqual(h.last('insertCode'), { type: 'insertCode', code: 'const x = 1;\n' });
    click(getByRole(h.root, 'button', 'Open code in editor'));
    assert.deepEqual(h.last('openCode'), { type: 'openCode', code: 'const x = 1;\n', language: 'ts' });
    const links = queryAllByRole(h.root.querySelector('.message.agent')!, 'link');
    assert.deepEqual(links.map((a) => a.getAttribute('href')), ['https://example.com']);
    const ev = new window.MouseEvent('click', { bubbles: true, cancelable: true });
    links[0].dispatchEvent(ev);
    assert.equal(ev.defaultPrevented, true, 'the webview never navigates');
    assert.deepEqual(h.last('openLink'), { type: 'openLink', href: 'https://example.com' });
  });
});

describe('webview: streaming', () => {
  it('applies appendText deltas to the right message, and a new item appends', () => {
    const h = mount(snapshot([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'Hel' }] }], { turn: 'running' }));
    for (const chunk of ['lo', ' wor', 'ld', '\n\nSecond ', 'paragraph']) {
      h.sendOps('s1', [{ op: 'appendText', index: 0, id: 'a1', contentIndex: 0, text: chunk }]);
    }
    const msg = h.root.querySelector('.message.agent')!;
    assert.deepEqual(Array.from(msg.querySelectorAll('p')).map((p) => p.textContent), ['Hello world', 'Second paragraph']);
    h.sendOps('s1', [{ op: 'append', item: { kind: 'tool_call', id: 't9', toolCallId: 'x', title: 'Read file', toolKind: 'read', status: 'pending', content: [], locations: [] } }]);
    getByRole(h.root, 'group', 'Read file');
    // Replacing the tool call updates the status.
    h.sendOps('s1', [{ op: 'replace', index: 1, id: 't9', item: { kind: 'tool_call', id: 't9', toolCallId: 'x', title: 'Read file', toolKind: 'read', status: 'failed', content: [], locations: [] } }]);
    assert.match(getByRole(h.root, 'group', 'Read file').textContent!, /Failed/);
    h.unmount();
  });

  it('a long code block streams into one code element; its buttons act on the whole code, HTML in it stays text', () => {
    const h = mount(snapshot([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: '```py\n' }] }], { turn: 'running' }));
    let code = '';
    for (let i = 0; i < 600; i++) {
      const line = `print("<img src=x onerror=alert(${i})>", ${i})\n`;
      code += line;
      h.sendOps('s1', [{ op: 'appendText', index: 0, id: 'a1', contentIndex: 0, text: line }]);
    }
    const msg = h.root.querySelector('.message.agent')!;
    const codeEl = () => msg.querySelectorAll('pre code');
    assert.equal(codeEl().length, 1);
    const streamingCode = codeEl()[0];
    assert.equal(streamingCode.textContent, code);
    assert.equal(msg.querySelectorAll('img').length, 0);
    click(getByRole(msg, 'button', 'Copy code'));
    assert.deepEqual(h.last('copyCode'), { type: 'copyCode', code });
    h.sendOps('s1', [{ op: 'appendText', index: 0, id: 'a1', contentIndex: 0, text: '```\n\nDone.' }]);
    assert.equal(codeEl()[0], streamingCode, 'closing the fence does not re-mount the long block');
    click(getByRole(msg, 'button', 'Open code in editor'));
    assert.deepEqual(h.last('openCode'), { type: 'openCode', code, language: 'py' });
    assert.match(msg.textContent!, /Done\./);
    h.unmount();
  });

  it('asks the host to resync when an ops message is missing from the sequence', () => {
    const h = mount(snapshot([]));
    h.send({ type: 'transcriptOps', sessionId: 's1', seq: 2, ops: [] });
    assert.match(h.last('resync')?.reason ?? '', /expected 1/);
    h.unmount();
  });

  it('asks the host to resync when an op does not apply', () => {
    const h = mount(snapshot([]));
    h.sendOps('s1', [{ op: 'appendText', index: 5, id: 'nope', contentIndex: 0, text: 'x' }]);
    assert.equal(h.last('resync')?.type, 'resync');
    h.unmount();
  });
});

describe('webview: composer', () => {
  it('has the named controls', () => {
    const h = mount(snapshot([]));
    getByRole(h.root, 'textbox', 'Message');
    getByRole(h.root, 'button', 'Send');
    getByRole(h.root, 'button', 'Stop');
    getByRole(h.root, 'button', 'New session');
    getByRole(h.root, 'combobox', 'Agent');
    h.unmount();
  });

  it('Enter sends, Shift+Enter does not, Up recalls the last message', () => {
    const h = mount(snapshot([]));
    const box = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    typeInto(box, 'line one');
    keydown(box, 'Enter', { shiftKey: true });
    assert.equal(h.last('prompt'), undefined);
    typeInto(box, 'line one\nline two');
    keydown(box, 'Enter');
    assert.deepEqual(h.last('prompt'), { type: 'prompt', sessionId: 's1', prompt: { text: 'line one\nline two', mentions: [], images: [] } });
    assert.equal((getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement).value, '');
    keydown(box, 'ArrowUp');
    assert.equal((getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement).value, 'line one\nline two');
    h.unmount();
  });

  it('Send button sends; Stop is enabled only while the agent works and cancels', () => {
    const h = mount(snapshot([]));
    const stop = getByRole(h.root, 'button', 'Stop') as HTMLButtonElement;
    assert.equal(stop.disabled, true);
    typeInto(getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement, 'hello');
    click(getByRole(h.root, 'button', 'Send'));
    assert.equal(h.last('prompt')?.prompt.text, 'hello');
    h.send({ type: 'session', session: { ...h.store.active!.view, turn: 'running' } });
    const stop2 = getByRole(h.root, 'button', 'Stop') as HTMLButtonElement;
    assert.equal(stop2.disabled, false);
    click(stop2);
    assert.deepEqual(h.last('cancel'), { type: 'cancel', sessionId: 's1' });
    h.unmount();
  });

  it('shows queued messages while busy: editable, removable, Send now', () => {
    const h = mount(snapshot([], { turn: 'running', queue: [{ id: 'q1', text: 'next thing', mentions: [], images: [] }] }));
    const q = getByRole(h.root, 'textbox', 'Queued message 1') as HTMLTextAreaElement;
    assert.equal(q.value, 'next thing');
    change(q, 'edited thing');
    assert.deepEqual(h.last('queueEdit'), { type: 'queueEdit', sessionId: 's1', queueId: 'q1', text: 'edited thing' });
    click(getByRole(h.root, 'button', 'Send now'));
    assert.deepEqual(h.last('queueSendNow'), { type: 'queueSendNow', sessionId: 's1', queueId: 'q1' });
    click(getByRole(h.root, 'button', 'Remove queued message 1'));
    assert.deepEqual(h.last('queueRemove'), { type: 'queueRemove', sessionId: 's1', queueId: 'q1' });
    // Typing while busy still posts the prompt; the host queues it.
    typeInto(getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement, 'another');
    keydown(getByRole(h.root, 'textbox', 'Message'), 'Enter');
    assert.equal(h.last('prompt')?.prompt.text, 'another');
    h.unmount();
  });

  it('completes slash commands with their input hint', () => {
    const h = mount(snapshot([], {}, { commands: [{ name: 'review', description: 'Review changes', inputHint: 'what to review' }, { name: 'init', description: 'Create AGENTS.md' }] }));
    const box = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    typeInto(box, '/rev');
    const list = getByRole(h.root, 'listbox', 'Commands');
    assert.equal(queryAllByRole(list, 'option').length, 1);
    keydown(box, 'Enter');
    assert.equal((getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement).value, '/review ');
    assert.equal(h.last('prompt'), undefined, 'accepting a suggestion does not send');
    assert.match(h.root.querySelector('.input-hint')!.textContent!, /what to review/);
    h.unmount();
  });

  it('@-mentions ask the host, filter fuzzily and are sent as mention objects', () => {
    const h = mount(snapshot([]));
    const box = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    typeInto(box, 'look at @apts');
    const q = h.last('mentionQuery')!;
    assert.equal(q.query, 'apts');
    h.send({ type: 'mentionResults', requestId: q.requestId, candidates: [
      { kind: 'file', uri: 'file:///ws/src/app.ts', label: 'app.ts', detail: 'src/app.ts' },
      { kind: 'file', uri: 'file:///ws/zzz.md', label: 'zzz.md', detail: 'zzz.md' },
    ] });
    const options = queryAllByRole(getByRole(h.root, 'listbox', 'Mentions'), 'option');
    assert.equal(options.length, 1);
    keydown(box, 'Enter');
    const box2 = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    assert.equal(box2.value, 'look at @app.ts ');
    keydown(box2, 'Enter');
    assert.deepEqual(h.last('prompt')?.prompt, { text: 'look at @app.ts ', mentions: [{ kind: 'file', uri: 'file:///ws/src/app.ts', label: 'app.ts' }], images: [] });
    h.unmount();
  });

  it('without a session, the first prompt carries the chosen agent', () => {
    const snap = snapshot([]);
    snap.sessions = [];
    snap.activeSessionId = undefined;
    const h = mount(snap);
    const agent = getByRole(h.root, 'combobox', 'Agent') as HTMLSelectElement;
    change(agent, 'Other Agent');
    h.flush();
    typeInto(getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement, 'hi');
    keydown(getByRole(h.root, 'textbox', 'Message'), 'Enter');
    assert.deepEqual(h.last('prompt'), { type: 'prompt', agentId: 'Other Agent', prompt: { text: 'hi', mentions: [], images: [] } });
    click(getByRole(h.root, 'button', 'New session'));
    assert.equal(h.last('newSession')?.agentId, 'Other Agent');
    h.unmount();
  });
});

describe('webview: permissions, elicitation, banners, tabs, history', () => {
  it('permission card: one button per option named by the option name; click posts the answer', () => {
    const h = mount(snapshot(
      [{ kind: 'tool_call', id: 't1', toolCallId: 'tc1', title: 'Write config.json', toolKind: 'edit', status: 'pending', content: [], locations: [] }],
      { turn: 'running', permissions: [{
        requestId: '0', toolCallId: 'tc1', title: 'Write config.json', toolKind: 'edit',
        locations: [{ path: '/ws/config.json' }],
        content: [{ type: 'diff', path: '/ws/config.json', oldText: null, newText: '{}' }],
        options: [
          { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'always', name: 'Always allow edits', kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      }] },
    ));
    // The request shows inside its tool call's group (an announced region there), not as a second card.
    const group = getByRole(h.root, 'group', 'Write config.json');
    assert.ok(group.classList.contains('awaiting'));
    assert.match(group.textContent!, /Awaiting permission/);
    const card = getByRole(group, 'region', 'Permission: Write config.json');
    assert.equal(queryAllByRole(h.root, 'region').filter((r) => accessibleName(r).startsWith('Permission:')).length, 1);
    assert.equal(h.root.querySelectorAll('.permission-card').length, 0, 'no standalone card');
    // The tool call shows no diff yet: the request's preview is shown, once.
    assert.equal(card.querySelectorAll('.diff-preview').length, 1);
    assert.equal(h.root.querySelectorAll('.diff-preview').length, 1);
    for (const name of ['Allow once', 'Always allow edits', 'Reject']) {
      const b = getByRole(group, 'button', name);
      assert.equal(b.tagName, 'BUTTON');
      assert.notEqual(b.tabIndex, -1);
    }
    assert.ok(getByRole(group, 'button', 'Always allow edits').classList.contains('kind-allow_always'));
    click(getByRole(group, 'button', 'Always allow edits'));
    assert.deepEqual(h.last('permissionAnswer'), { type: 'permissionAnswer', sessionId: 's1', requestId: '0', answer: { optionId: 'always' } });
    h.unmount();
  });

  it('a permission request never repeats the diff its tool call already shows', () => {
    const diff = { type: 'diff' as const, path: '/ws/a.ts', oldText: 'a', newText: 'b' };
    const h = mount(snapshot(
      [{ kind: 'tool_call', id: 't1', toolCallId: 'tc1', title: 'Edit a.ts', toolKind: 'edit', status: 'pending', content: [diff], locations: [] }],
      { turn: 'running', permissions: [{
        requestId: '3', toolCallId: 'tc1', title: 'Edit a.ts', toolKind: 'edit', content: [diff],
        options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }],
      }] },
    ));
    const group = getByRole(h.root, 'group', 'Edit a.ts');
    assert.equal(h.root.querySelectorAll('.diff-preview').length, 1, 'the diff shows once, in the tool call');
    assert.equal(getByRole(group, 'region', 'Permission: Edit a.ts').querySelectorAll('.diff-preview').length, 0);
    click(getByRole(group, 'button', 'Reject'));
    assert.deepEqual(h.last('permissionAnswer'), { type: 'permissionAnswer', sessionId: 's1', requestId: '3', answer: { optionId: 'no' } });
    // Answered: the request goes, the card is a plain tool call again.
    h.send({ type: 'session', session: { ...h.store.state.sessions.get('s1')!.view, permissions: [] } });
    const after = getByRole(h.root, 'group', 'Edit a.ts');
    assert.ok(!after.classList.contains('awaiting'));
    assert.equal(queryAllByRole(after, 'button').filter((b) => accessibleName(b) === 'Reject').length, 0);
    h.unmount();
  });

  it('a permission request for a tool call the transcript lacks gets a card of its own, with its preview', () => {
    const h = mount(snapshot(
      [{ kind: 'tool_call', id: 't1', toolCallId: 'tc1', title: 'Read a.ts', toolKind: 'read', status: 'completed', content: [], locations: [] }],
      { turn: 'running', permissions: [{
        requestId: '5', toolCallId: 'unknown', title: 'Run rm -rf build', toolKind: 'execute', command: 'rm -rf build',
        content: [{ type: 'diff', path: '/ws/b.ts', oldText: null, newText: 'x' }],
        options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
      }] },
    ));
    const card = getByRole(h.root, 'region', 'Permission: Run rm -rf build');
    assert.ok(card.classList.contains('permission-card'));
    assert.equal(card.closest('[role="group"]'), null, 'not inside an unrelated tool call');
    assert.match(card.textContent!, /\$ rm -rf build/);
    assert.equal(card.querySelectorAll('.diff-preview').length, 1);
    assert.ok(!getByRole(h.root, 'group', 'Read a.ts').classList.contains('awaiting'));
    click(getByRole(card, 'button', 'Allow'));
    assert.deepEqual(h.last('permissionAnswer'), { type: 'permissionAnswer', sessionId: 's1', requestId: '5', answer: { optionId: 'ok' } });
    h.unmount();
  });

  it('a terminal card offers "Open terminal" while its VS Code terminal is open', () => {
    const snap = snapshot([
      { kind: 'tool_call', id: 't2', toolCallId: 'tc2', title: 'Run npm test', toolKind: 'execute', status: 'in_progress', locations: [], content: [{ type: 'terminal', terminalId: 'term1' }] },
      { kind: 'tool_call', id: 't3', toolCallId: 'tc3', title: 'Run ls', toolKind: 'execute', status: 'completed', locations: [], content: [{ type: 'terminal', terminalId: 'gone' }] },
    ]);
    snap.terminals = [{ terminalId: 'term1', output: 'running\n', open: true }];
    const h = mount(snap);
    const run = getByRole(h.root, 'group', 'Run npm test');
    click(getByRole(run, 'button', 'Open terminal'));
    assert.deepEqual(h.last('openTerminal'), { type: 'openTerminal', sessionId: 's1', terminalId: 'term1' });
    // A terminal the host no longer knows offers nothing.
    assert.equal(queryAllByRole(getByRole(h.root, 'group', 'Run ls'), 'button').filter((b) => accessibleName(b) === 'Open terminal').length, 0);
    // Output without `open` keeps what the card knew; the host reporting it closed removes the button.
    h.send({ type: 'terminalOutput', terminalId: 'term1', data: 'more\n' });
    getByRole(getByRole(h.root, 'group', 'Run npm test'), 'button', 'Open terminal');
    h.send({ type: 'terminalOutput', terminalId: 'term1', data: '', open: false });
    const closed = getByRole(h.root, 'group', 'Run npm test');
    assert.equal(queryAllByRole(closed, 'button').filter((b) => accessibleName(b) === 'Open terminal').length, 0);
    assert.match(closed.textContent!, /Terminal closed/);
    assert.match(closed.querySelector('.terminal-output')!.textContent!, /running\nmore/);
    h.unmount();
  });

  it('elicitation form from the schema posts typed content; Decline and Cancel', () => {
    const h = mount(snapshot([], { elicitations: [{
      requestId: 'e1', mode: 'form', message: 'Configure the deploy',
      schema: { type: 'object', required: ['name'], properties: {
        name: { type: 'string', title: 'Name' },
        count: { type: 'integer', title: 'Count' },
        dry: { type: 'boolean', title: 'Dry run' },
        env: { type: 'string', title: 'Environment', enum: ['dev', 'prod'], enumNames: ['Development', 'Production'] },
        tags: { type: 'array', title: 'Tags', items: { enum: ['a', 'b'] } },
      } },
    }] }));
    const form = getByRole(h.root, 'form', 'Configure the deploy');
    click(getByRole(form, 'button', 'Accept'));
    assert.equal(h.last('elicitationAnswer'), undefined, 'required field blocks accept');
    typeInto(getByRole(form, 'textbox', 'Name (required)') as HTMLInputElement, 'web');
    typeInto(getByRole(form, 'spinbutton', 'Count') as HTMLInputElement, '3');
    click(getByRole(form, 'checkbox', 'Dry run'));
    const env = getByRole(form, 'combobox', 'Environment') as HTMLSelectElement;
    change(env, 'prod');
    click(getByRole(form, 'checkbox', 'b'));
    click(getByRole(form, 'button', 'Accept'));
    assert.deepEqual(h.last('elicitationAnswer'), { type: 'elicitationAnswer', sessionId: 's1', requestId: 'e1', answer: { action: 'accept', content: { name: 'web', count: 3, dry: true, env: 'prod', tags: ['b'] } } });
    click(getByRole(form, 'button', 'Decline'));
    assert.deepEqual(h.last('elicitationAnswer')?.answer, { action: 'decline' });
    click(getByRole(form, 'button', 'Cancel'));
    assert.deepEqual(h.last('elicitationAnswer')?.answer, { action: 'cancel' });
    h.unmount();
  });

  it('crash banner shows the last stderr lines and Restart; auth panel lists methods', () => {
    const snap = snapshot([]);
    snap.agents[0] = { id: 'Fake Agent', name: 'Fake Agent', status: 'crashed', crash: { message: 'exited', exitCode: 1, stderrTail: ['Error: boom', 'at main'] } };
    const h = mount(snap);
    const alert = h.root.querySelector('[role="alert"]')!;
    assert.match(alert.textContent!, /Error: boom\nat main/);
    click(getByRole(h.root, 'button', 'Restart'));
    assert.deepEqual(h.last('restartAgent'), { type: 'restartAgent', agentId: 'Fake Agent' });
    h.send({ type: 'agents', agents: [{ id: 'Fake Agent', name: 'Fake Agent', status: 'auth_required', authMethods: [
      { id: 'login', name: 'Log in with browser', kind: 'agent' },
      { id: 'key', name: 'Use an API key', kind: 'env_var', vars: ['FAKE_API_KEY'] },
    ] }], defaultAgentId: 'Fake Agent' });
    getByRole(h.root, 'region', 'Sign in to Fake Agent');
    click(getByRole(h.root, 'button', 'Use an API key'));
    assert.deepEqual(h.last('authenticate'), { type: 'authenticate', agentId: 'Fake Agent', methodId: 'key' });
    h.unmount();
  });

  it('picking an agent that needs sign-in while another session is open: the picker stays on it and its methods show', () => {
    const h = mount(snapshot([]));
    const picker = () => getByRole(h.root, 'combobox', 'Agent') as HTMLSelectElement;
    change(picker(), 'Other Agent');
    h.flush();
    assert.equal(h.last('newSession')?.agentId, 'Other Agent');
    // The host answers: Other Agent waits for sign-in before it opens the session.
    h.send({ type: 'agents', defaultAgentId: 'Fake Agent', agents: [
      { id: 'Fake Agent', name: 'Fake Agent', status: 'ready' },
      { id: 'Other Agent', name: 'Other Agent', status: 'auth_required', afterSignIn: 'starts the session', authMethods: [{ id: 'key', name: 'Use Gemini API key', kind: 'agent' }] },
    ] });
    assert.equal(picker().value, 'Other Agent', 'the picker does not snap back to the active session agent');
    const region = getByRole(h.root, 'region', 'Sign in to Other Agent');
    assert.match(region.textContent!, /Signing in starts the session/);
    click(getByRole(region, 'button', 'Use Gemini API key'));
    assert.deepEqual(h.last('authenticate'), { type: 'authenticate', agentId: 'Other Agent', methodId: 'key' });
    click(getByRole(h.root, 'button', 'New session'));
    assert.equal(h.last('newSession')?.agentId, 'Other Agent', 'New session starts the picked agent, not another session of the active one');
    // A failed sign-in is said in the banner.
    h.send({ type: 'agents', defaultAgentId: 'Fake Agent', agents: [
      { id: 'Fake Agent', name: 'Fake Agent', status: 'ready' },
      { id: 'Other Agent', name: 'Other Agent', status: 'auth_required', authError: 'The sign-in command "Login" exited with code 1: sign-in failed.', authMethods: [{ id: 'key', name: 'Use Gemini API key', kind: 'agent' }] },
    ] });
    assert.match(getByRole(h.root, 'region', 'Sign in to Other Agent').textContent!, /exited with code 1: sign-in failed/);
    // Its session opens: the picker follows the active session again; choosing a tab also clears the pick.
    h.send({ type: 'session', session: { ...snapshot([]).sessions[0].view, sessionId: 's2', agentId: 'Other Agent' } });
    h.send({ type: 'activeSession', sessionId: 's2' });
    assert.equal(picker().value, 'Other Agent');
    click(queryAllByRole(h.root, 'tab')[0]);
    h.send({ type: 'activeSession', sessionId: 's1' });
    assert.equal(picker().value, 'Fake Agent');
    h.unmount();
  });

  it('session tabs select and close; history opens, loads, resumes, deletes', () => {
    const snap = snapshot([]);
    snap.sessions.push({ view: { ...snap.sessions[0].view, sessionId: 's2', title: 'Second' }, transcript: { sessionId: 's2', items: [], commands: [], configOptions: [] } });
    snap.history = [{ id: 'h1', sessionId: 'old', agentId: 'Fake Agent', title: 'Old chat', source: 'local', canLoad: true, canResume: true, canDelete: true }];
    const h = mount(snap);
    const tabs = queryAllByRole(h.root, 'tab');
    assert.equal(tabs.length, 2);
    assert.equal(tabs[0].getAttribute('aria-selected'), 'true');
    click(getByRole(h.root, 'tab', 'Second'));
    assert.deepEqual(h.last('selectSession'), { type: 'selectSession', sessionId: 's2' });
    keydown(tabs[0], 'ArrowRight');
    assert.deepEqual(h.last('selectSession'), { type: 'selectSession', sessionId: 's2' });
    click(getByRole(h.root, 'button', 'Close session Second'));
    assert.deepEqual(h.last('closeSession'), { type: 'closeSession', sessionId: 's2' });
    const historyButton = getByRole(h.root, 'button', 'History');
    click(historyButton);
    h.flush();
    assert.equal(h.last('refreshHistory')?.type, 'refreshHistory');
    click(getByRole(h.root, 'button', 'Open Old chat'));
    assert.deepEqual(h.last('openHistory'), { type: 'openHistory', historyId: 'h1', mode: 'load' });
    click(getByRole(h.root, 'button', 'Resume Old chat'));
    assert.deepEqual(h.last('openHistory'), { type: 'openHistory', historyId: 'h1', mode: 'resume' });
    click(getByRole(h.root, 'button', 'Delete Old chat'));
    assert.deepEqual(h.last('deleteHistory'), { type: 'deleteHistory', historyId: 'h1' });
    h.unmount();
  });

  it('history search filters by title and agent, fuzzily', () => {
    const snap = snapshot([]);
    snap.history = [
      { id: 'h1', sessionId: 'a', agentId: 'Claude Agent', title: 'Refactor the parser', source: 'local', canLoad: true, canResume: false, canDelete: true },
      { id: 'h2', sessionId: 'b', agentId: 'Gemini CLI', title: 'Write release notes', source: 'agent', canLoad: true, canResume: false, canDelete: false },
    ];
    const h = mount(snap);
    click(getByRole(h.root, 'button', 'History'));
    h.flush();
    const search = getByRole(h.root, 'searchbox', 'Search history') as HTMLInputElement;
    typeInto(search, 'rfctr');
    h.flush();
    assert.ok(getByRole(h.root, 'button', 'Open Refactor the parser'));
    assert.equal(queryAllByRole(h.root, 'button').some((b) => accessibleName(b) === 'Open Write release notes'), false);
    typeInto(search, 'gemini');
    h.flush();
    assert.ok(getByRole(h.root, 'button', 'Open Write release notes'));
    typeInto(search, 'zzzz');
    h.flush();
    assert.match(h.root.textContent ?? '', /No session matches/);
    h.unmount();
  });

  it('every button, textbox and select has an accessible name', () => {
    const snap = snapshot(ALL_ITEMS, { turn: 'running', queue: [{ id: 'q', text: 'x', mentions: [], images: [] }] });
    const h = mount(snap);
    for (const role of ['button', 'textbox', 'searchbox', 'combobox', 'checkbox', 'tab']) {
      for (const el of queryAllByRole(h.root, role)) {
        assert.ok(accessibleName(el).length > 0, `unnamed ${role}: ${el.outerHTML.slice(0, 120)}`);
      }
    }
    h.unmount();
  });
});
