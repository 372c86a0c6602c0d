// How each transcript item renders in the chat (Markdown, thoughts, tool call cards with their diff, terminal
// and content, plans, notices, errors, stop reasons) and the session header's title, usage meter, pickers and account.
import './setupDom';
import * as assert from 'node:assert/strict';
import { ALL_ITEMS } from './allItems';
import { accessibleName, change, click, getByRole, mount, queryAllByRole, snapshot, type Harness } from './helpers';

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
