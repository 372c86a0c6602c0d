import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { AgentView, ElicitationAnswer, HistoryItem, MentionCandidate, TerminalSnapshot } from '../../../src/shared/chatState';
import { applyTranscriptOps, type ComposerPrompt, type HostToWebviewMessage, type PermissionAnswer } from '../../../src/shared/messages';
import type { Transcript, TranscriptItem } from '../../../src/shared/transcript';
import type { BackendSessionView, ChatBackend, ChatEvent, TerminalOutputEvent, TranscriptChangeEvent } from '../../../src/chat/chatBackend';
import { ChatController, type HostUi } from '../../../src/chat/chatController';
import { stripAnsi, stripAnsiStreaming } from '../../../src/shared/ansi';

function event<T>(em: EventEmitter, name: string): ChatEvent<T> {
  return (listener) => {
    em.on(name, listener);
    return { dispose: () => em.off(name, listener) };
  };
}

class FakeBackend implements ChatBackend {
  em = new EventEmitter();
  calls: [string, ...unknown[]][] = [];
  agents: AgentView[] = [{ id: 'A', name: 'A', status: 'ready' }];
  view: BackendSessionView = {
    sessionId: 's1', agentId: 'A', turn: 'idle',
    capabilities: { image: false, audio: false, embeddedContext: true }, permissions: [], elicitations: [],
  };
  transcript: Transcript = { sessionId: 's1', items: [], commands: [], configOptions: [] };
  terminals: TerminalSnapshot[] = [];
  turnResolvers: (() => void)[] = [];

  getAgents() { return this.agents; }
  getDefaultAgentId() { return 'A'; }
  getSessions() { return [{ view: this.view, transcript: this.transcript }]; }
  getActiveSessionId() { return 's1'; }
  getHistory(): HistoryItem[] { return []; }
  getTerminals() { return this.terminals; }
  async newSession(agentId?: string) { this.calls.push(['newSession', agentId]); return 's1'; }
  selectSession(id: string) { this.calls.push(['selectSession', id]); }
  async closeSession(id: string) { this.calls.push(['closeSession', id]); }
  sendPrompt(sessionId: string, prompt: ComposerPrompt): Promise<void> {
    this.calls.push(['sendPrompt', sessionId, prompt.text]);
    this.setTurn('running');
    return new Promise((resolve) => this.turnResolvers.push(() => { this.setTurn('idle'); resolve(); }));
  }
  async cancel(id: string) { this.calls.push(['cancel', id]); }
  async setMode(s: string, m: string) { this.calls.push(['setMode', s, m]); }
  async setModel(s: string, m: string) { this.calls.push(['setModel', s, m]); }
  async setConfigOption(s: string, c: string, v: string | boolean) { this.calls.push(['setConfigOption', s, c, v]); }
  answerPermission(s: string, r: string, a: PermissionAnswer) { this.calls.push(['answerPermission', s, r, a]); }
  answerElicitation(s: string, r: string, a: ElicitationAnswer) { this.calls.push(['answerElicitation', s, r, a]); }
  dismissError(s: string) { this.calls.push(['dismissError', s]); }
  async restartAgent(a: string) { this.calls.push(['restartAgent', a]); }
  async authenticate(a: string, m: string) { this.calls.push(['authenticate', a, m]); }
  async refreshHistory() { this.calls.push(['refreshHistory']); }
  async openHistory(id: string, mode: 'load' | 'resume') { this.calls.push(['openHistory', id, mode]); }
  async deleteHistory(id: string) { this.calls.push(['deleteHistory', id]); }
  async openDiff(s: string, t: string, p: string) { this.calls.push(['openDiff', s, t, p]); }
  onDidChangeAgents = event<void>(this.em, 'agents');
  onDidChangeSession = event<BackendSessionView>(this.em, 'session');
  onDidCloseSession = event<string>(this.em, 'close');
  onDidChangeActiveSession = event<string | undefined>(this.em, 'active');
  onDidChangeTranscript = event<TranscriptChangeEvent>(this.em, 'transcript');
  onDidChangeHistory = event<{ loading?: boolean }>(this.em, 'history');
  onDidTerminalOutput = event<TerminalOutputEvent>(this.em, 'terminal');

  setTurn(turn: BackendSessionView['turn']) {
    this.view = { ...this.view, turn };
    this.em.emit('session', this.view);
  }
  /** Immutable reducer style: new items array, new item objects for changed items. */
  update(items: TranscriptItem[]) {
    this.transcript = { ...this.transcript, items };
    this.em.emit('transcript', { sessionId: 's1', transcript: this.transcript });
  }
  finishTurn() { this.turnResolvers.shift()?.(); }
}

function fakeUi(log: string[] = []): HostUi {
  return {
    copy: async (t) => void log.push(`copy:${t}`),
    insertAtCursor: async (t) => void log.push(`insert:${t}`),
    openInEditor: async (t) => void log.push(`open:${t}`),
    openLink: async (h) => void log.push(`link:${h}`),
    openLocation: async (p, l) => void log.push(`loc:${p}:${l}`),
    openResource: async (u) => void log.push(`res:${u}`),
    showProtocolLog: async () => void log.push('protocolLog'),
    queryMentions: async (q): Promise<MentionCandidate[]> => [{ kind: 'file', uri: 'file:///a.ts', label: `a-${q}.ts` }],
    log: (level, m) => void log.push(`${level}:${m}`),
    showError: (m) => void log.push(`error:${m}`),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

function setup() {
  const backend = new FakeBackend();
  const uiLog: string[] = [];
  const ctl = new ChatController(backend, fakeUi(uiLog), { flushDelayMs: 1 });
  const posted: HostToWebviewMessage[] = [];
  ctl.attach({ postMessage: (m) => { posted.push(JSON.parse(JSON.stringify(m))); return true; } });
  return { backend, ctl, posted, uiLog };
}

function flatten(ms: HostToWebviewMessage[]): HostToWebviewMessage[] {
  return ms.flatMap((m) => (m.type === 'batch' ? flatten(m.messages) : [m]));
}

describe('ChatController: handshake and queueing while not ready', () => {
  it('sends nothing before ready, then init with the full snapshot, then the queued messages', async () => {
    const { backend, ctl, posted } = setup();
    ctl.focusComposer('hello');
    backend.update([{ kind: 'user_message', id: 'u1', content: [{ type: 'text', text: 'hi' }] }]);
    backend.em.emit('agents');
    await tick();
    assert.equal(posted.length, 0);
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    assert.equal(posted[0].type, 'init');
    const init = posted[0] as Extract<HostToWebviewMessage, { type: 'init' }>;
    assert.equal(init.snapshot.sessions[0].transcript.items.length, 1);
    assert.deepEqual(init.snapshot.sessions[0].view.queue, []);
    assert.deepEqual(posted[1], { type: 'focusComposer', insert: 'hello' });
    await tick();
    assert.equal(posted.length, 2, 'no stale deltas after init');
  });

  it('stops sending when hidden and resyncs on the next ready', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    ctl.setVisible(false);
    backend.update([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'while hidden' }] }]);
    await tick();
    assert.equal(posted.length, 1);
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    const init = posted[1] as Extract<HostToWebviewMessage, { type: 'init' }>;
    assert.equal(init.type, 'init');
    assert.equal(init.snapshot.sessions[0].transcript.items.length, 1);
  });

  it('treats a failed postMessage as not ready', async () => {
    const backend = new FakeBackend();
    const ctl = new ChatController(backend, fakeUi(), { flushDelayMs: 1 });
    let live = true;
    const posted: HostToWebviewMessage[] = [];
    ctl.attach({ postMessage: async (m) => { if (live) posted.push(m); return live; } });
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    await tick();
    live = false;
    backend.update([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'x' }] }]);
    await tick();
    await tick();
    assert.equal(ctl.isReady, false);
  });

  it('ignores malformed messages', () => {
    const { ctl, uiLog } = setup();
    ctl.handleMessage({ type: 'rm -rf' });
    ctl.handleMessage(null);
    assert.equal(uiLog.filter((l) => l.startsWith('warn:')).length, 2);
  });
});

describe('ChatController: batched transcript deltas', () => {
  it('coalesces many chunks into one batch of appendText ops carrying only new text', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    const mirror = (posted[0] as Extract<HostToWebviewMessage, { type: 'init' }>).snapshot.sessions[0].transcript;
    let text = '';
    backend.update([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text }] }]);
    for (let i = 0; i < 500; i++) {
      text += `chunk${i} `;
      backend.update([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text }] }]);
    }
    await tick();
    const msgs = flatten(posted.slice(1));
    assert.equal(posted.length, 2, 'one postMessage for the whole burst');
    const ops = msgs.flatMap((m) => (m.type === 'transcriptOps' ? m.ops : []));
    const applied = applyTranscriptOps(mirror, ops);
    assert.deepEqual(applied.items, backend.transcript.items);
    // Further chunks: only the suffix travels.
    backend.update([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: text + 'TAIL' }] }]);
    await tick();
    const last = flatten([posted[posted.length - 1]]);
    assert.deepEqual(last, [{ type: 'transcriptOps', sessionId: 's1', ops: [{ op: 'appendText', index: 0, id: 'a1', contentIndex: 0, text: 'TAIL' }] }]);
  });

  it('replaces changed tool calls, appends new items, sends meta changes, and survives in-place mutation with hints', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    let mirror = (posted[0] as Extract<HostToWebviewMessage, { type: 'init' }>).snapshot.sessions[0].transcript;
    const apply = () => {
      for (const m of flatten(posted.splice(1))) if (m.type === 'transcriptOps') mirror = applyTranscriptOps(mirror, m.ops);
    };
    const tool: TranscriptItem = { kind: 'tool_call', id: 't1', toolCallId: 'tc', title: 'Read', toolKind: 'read', status: 'pending', content: [], locations: [] };
    backend.update([tool]);
    await tick();
    apply();
    backend.update([{ ...tool, status: 'completed' }, { kind: 'plan', id: 'p1', entries: [] }]);
    backend.transcript.title = 'Titled';
    backend.em.emit('transcript', { sessionId: 's1', transcript: backend.transcript });
    await tick();
    apply();
    assert.deepEqual(mirror.items, backend.transcript.items);
    assert.equal(mirror.title, 'Titled');
    // Mutable reducer: same objects, changed in place, with changedItemIds.
    const many: TranscriptItem[] = Array.from({ length: 30 }, (_, i) => ({ kind: 'tool_call', id: `x${i}`, toolCallId: `x${i}`, title: `T${i}`, toolKind: 'other', status: 'pending', content: [], locations: [] }));
    backend.update([...backend.transcript.items, ...many]);
    await tick();
    apply();
    (many[0] as Extract<TranscriptItem, { kind: 'tool_call' }>).status = 'failed';
    backend.em.emit('transcript', { sessionId: 's1', transcript: backend.transcript, changedItemIds: ['x0'] });
    await tick();
    apply();
    assert.deepEqual(mirror.items, backend.transcript.items);
  });

  it('resends the whole transcript when items are reordered', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    const a: TranscriptItem = { kind: 'notice', id: 'n1', severity: 'info', title: 'one' };
    const b: TranscriptItem = { kind: 'notice', id: 'n2', severity: 'info', title: 'two' };
    backend.update([a, b]);
    await tick();
    backend.update([b, a]);
    await tick();
    const last = flatten([posted[posted.length - 1]]);
    assert.equal(last[0].type, 'transcriptReset');
  });

  it('strips ANSI from terminal output and batches it', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    backend.em.emit('terminal', { terminalId: 't', data: '\u001b[32mok\u001b[0m line\r\n\u001b[' });
    backend.em.emit('terminal', { terminalId: 't', data: '1mbold\u001b[0m', exitStatus: { exitCode: 0 } });
    await tick();
    const msgs = flatten(posted.slice(1));
    assert.deepEqual(msgs, [{ type: 'terminalOutput', terminalId: 't', data: 'ok line\nbold', exitStatus: { exitCode: 0 } }]);
    assert.equal(stripAnsi('\u001b]0;title\u0007x\u001b[2Ky'), 'xy');
    assert.deepEqual(stripAnsiStreaming('', 'a\u001b[3'), { text: 'a', carry: '\u001b[3' });
  });
});

describe('ChatController: prompts and the message queue', () => {
  it('sends when idle, queues while busy, sends the queue when the turn ends', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    const prompt = (text: string) => ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: { text, mentions: [], images: [] } });
    prompt('first');
    await tick();
    prompt('second');
    prompt('third');
    await tick();
    assert.deepEqual(backend.calls.filter((c) => c[0] === 'sendPrompt'), [['sendPrompt', 's1', 'first']]);
    assert.deepEqual(ctl.queued('s1').map((q) => q.text), ['second', 'third']);
    const sessionMsgs = flatten(posted).filter((m): m is Extract<HostToWebviewMessage, { type: 'session' }> => m.type === 'session');
    assert.deepEqual(sessionMsgs[sessionMsgs.length - 1].session.queue.map((q) => q.text), ['second', 'third']);
    // Edit, then end the turn: the edited queued message goes next.
    ctl.handleMessage({ type: 'queueEdit', sessionId: 's1', queueId: ctl.queued('s1')[0].id, text: 'second (edited)' });
    await tick();
    backend.finishTurn();
    await tick();
    assert.deepEqual(backend.calls.filter((c) => c[0] === 'sendPrompt').map((c) => c[2]), ['first', 'second (edited)']);
    assert.deepEqual(ctl.queued('s1').map((q) => q.text), ['third']);
  });

  it('Send now cancels the turn and sends that message next; Remove drops it', async () => {
    const { backend, ctl } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    const prompt = (text: string) => ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: { text, mentions: [], images: [] } });
    prompt('running');
    await tick();
    prompt('a');
    prompt('b');
    prompt('c');
    await tick();
    const [qa, qb, qc] = ctl.queued('s1');
    ctl.handleMessage({ type: 'queueRemove', sessionId: 's1', queueId: qa.id });
    ctl.handleMessage({ type: 'queueSendNow', sessionId: 's1', queueId: qc.id });
    await tick();
    assert.ok(backend.calls.some((c) => c[0] === 'cancel'));
    backend.finishTurn();
    await tick();
    assert.deepEqual(backend.calls.filter((c) => c[0] === 'sendPrompt').map((c) => c[2]), ['running', 'c']);
    assert.deepEqual(ctl.queued('s1').map((q) => q.id), [qb.id]);
  });

  it('starts a session for a prompt without one, drops empty prompts and bad images', async () => {
    const { backend, ctl } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    ctl.handleMessage({ type: 'prompt', prompt: { text: '   ', mentions: [], images: [] } });
    ctl.handleMessage({ type: 'prompt', agentId: 'A', prompt: { text: 'hi', mentions: [], images: [{ id: 'i', mimeType: 'text/html', data: 'x' }] } });
    await tick();
    assert.deepEqual(backend.calls.slice(0, 2), [['newSession', 'A'], ['sendPrompt', 's1', 'hi']]);
  });
});

describe('ChatController: routing webview actions', () => {
  it('routes permission, elicitation, pickers, history, editor actions and mentions', async () => {
    const { backend, ctl, posted, uiLog } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    ctl.handleMessage({ type: 'permissionAnswer', sessionId: 's1', requestId: '0', answer: { optionId: 'allow' } });
    ctl.handleMessage({ type: 'permissionAnswer', sessionId: 's1', requestId: '1', answer: { cancelled: true } });
    ctl.handleMessage({ type: 'elicitationAnswer', sessionId: 's1', requestId: 'e', answer: { action: 'decline' } });
    ctl.handleMessage({ type: 'setMode', sessionId: 's1', modeId: 'plan' });
    ctl.handleMessage({ type: 'setModel', sessionId: 's1', modelId: 'm' });
    ctl.handleMessage({ type: 'setConfigOption', sessionId: 's1', configId: 'c', value: true });
    ctl.handleMessage({ type: 'restartAgent', agentId: 'A' });
    ctl.handleMessage({ type: 'authenticate', agentId: 'A', methodId: 'login' });
    ctl.handleMessage({ type: 'openHistory', historyId: 'h', mode: 'resume' });
    ctl.handleMessage({ type: 'openDiff', sessionId: 's1', toolCallId: 'tc', path: '/a' });
    ctl.handleMessage({ type: 'copyCode', code: 'x' });
    ctl.handleMessage({ type: 'openLink', href: 'https://example.com' });
    ctl.handleMessage({ type: 'mentionQuery', requestId: 7, query: 'ap' });
    await tick();
    assert.deepEqual(backend.calls, [
      ['answerPermission', 's1', '0', { optionId: 'allow' }],
      ['answerPermission', 's1', '1', { cancelled: true }],
      ['answerElicitation', 's1', 'e', { action: 'decline' }],
      ['setMode', 's1', 'plan'],
      ['setModel', 's1', 'm'],
      ['setConfigOption', 's1', 'c', true],
      ['restartAgent', 'A'],
      ['authenticate', 'A', 'login'],
      ['openHistory', 'h', 'resume'],
      ['openDiff', 's1', 'tc', '/a'],
    ]);
    assert.ok(uiLog.includes('copy:x'));
    assert.ok(uiLog.includes('link:https://example.com'));
    assert.ok(flatten(posted).some((m) => m.type === 'mentionResults' && m.requestId === 7 && m.candidates[0].label === 'a-ap.ts'));
  });
});

describe('ChatController: batching is a throttle', () => {
  it('posts the first update at once, coalesces a burst, and spaces later batches by the flush delay', async () => {
    const backend = new FakeBackend();
    const ctl = new ChatController(backend, fakeUi(), { flushDelayMs: 200 });
    const posted: { at: number; m: HostToWebviewMessage }[] = [];
    const t0 = performance.now();
    ctl.attach({ postMessage: (m) => { posted.push({ at: performance.now() - t0, m }); return true; } });
    ctl.handleMessage({ type: 'ready', protocolVersion: 1 });
    posted.length = 0;
    backend.update([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'one' }] }]);
    backend.update([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'one two' }] }]);
    await tick();
    assert.equal(posted.length, 1, 'the first update after a quiet period goes out without waiting a frame');
    backend.update([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'one two three' }] }]);
    await tick();
    assert.equal(posted.length, 1, 'the next one waits for the flush delay');
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(posted.length, 2);
    assert.ok(posted[1].at - posted[0].at >= 190, `spaced ${posted[1].at - posted[0].at} ms`);
    ctl.dispose();
  });
});
