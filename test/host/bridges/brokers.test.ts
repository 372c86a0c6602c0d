// session/request_permission and elicitation/create through fake presenters (no agent involved).
import * as assert from 'assert';
import type { CreateElicitationRequest, CreateElicitationResponse, RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { ElicitationBroker, type ElicitationPresenter, type ElicitationPrompt } from '../../../src/host/permissions/elicitationBroker';
import { PermissionBroker, type PermissionDecision, type PermissionPresenter, type PermissionPrompt } from '../../../src/host/permissions/permissionBroker';
import { bridgeError } from './helpers';

const request = (sessionId = 's1', kind: 'edit' | 'read' | 'execute' | null = 'edit'): RequestPermissionRequest => ({
  sessionId,
  toolCall: { toolCallId: 'tc1', title: 'Edit main.ts', kind, locations: [{ path: '/w/main.ts' }] },
  options: [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'always', name: 'Always', kind: 'allow_always' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
});

/** A presenter the test answers by hand. */
class FakePresenter implements PermissionPresenter {
  shown: Array<{ prompt: PermissionPrompt; signal: AbortSignal; answer: (id: string | undefined) => void }> = [];
  available = true;
  canPresent(): boolean {
    return this.available;
  }
  present(prompt: PermissionPrompt, signal: AbortSignal): Promise<string | undefined> {
    return new Promise((answer) => this.shown.push({ prompt, signal, answer }));
  }
}

/** What a request of the session comes with: its agent, and the kind its earlier tool_call gave. */
const context = { agentName: 'Fake Agent', toolKindOf: () => 'read' };
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('bridges: permission broker', () => {
  let chat: FakePresenter;
  let fallback: FakePresenter;
  let config: Record<string, unknown>;
  let broker: PermissionBroker;

  beforeEach(() => {
    chat = new FakePresenter();
    fallback = new FakePresenter();
    config = {};
    broker = new PermissionBroker({
      presenters: [chat, fallback],
      getAutoApproveLayers: () => [{ config, source: 'user' }],
    });
  });
  afterEach(() => broker.dispose());

  it('granted: the chosen option is selected', async () => {
    const p = broker.handle(request(), context);
    await tick();
    assert.strictEqual(chat.shown[0].prompt.agentName, 'Fake Agent');
    chat.shown[0].answer('allow');
    assert.deepStrictEqual(await p, { outcome: { outcome: 'selected', optionId: 'allow' } });
    assert.strictEqual(broker.pending().length, 0);
  });

  it('rejected: the reject option is selected', async () => {
    const p = broker.handle(request(), context);
    await tick();
    chat.shown[0].answer('reject');
    assert.deepStrictEqual(await p, { outcome: { outcome: 'selected', optionId: 'reject' } });
  });

  it('cancelled: cancelAll answers every pending request of the session with outcome cancelled', async () => {
    const a = broker.request(request('s1'), context);
    const b = broker.request(request('s1'), context);
    const other = broker.request(request('s2'), context);
    await tick();
    assert.strictEqual(broker.cancelAll('s1'), 2);
    for (const d of await Promise.all([a, b])) {
      assert.deepStrictEqual(d.response, { outcome: { outcome: 'cancelled' } });
      assert.strictEqual(d.via, 'cancelled');
    }
    assert.ok(chat.shown.slice(0, 2).every((s) => s.signal.aborted), 'the cards are told to go away');
    assert.strictEqual(broker.pending('s2').length, 1);
    assert.strictEqual(broker.cancelAllPending(), 1);
    assert.deepStrictEqual((await other).response, { outcome: { outcome: 'cancelled' } });
  });

  it('a late answer after cancel is ignored; the first answer wins', async () => {
    const p = broker.request(request(), context);
    await tick();
    assert.ok(broker.resolve(chat.shown[0].prompt.id, 'always'));
    chat.shown[0].answer('reject');
    assert.strictEqual(broker.resolve(chat.shown[0].prompt.id, 'allow'), false);
    assert.deepStrictEqual((await p).response, { outcome: { outcome: 'selected', optionId: 'always' } });
    assert.ok(chat.shown[0].signal.aborted);
  });

  it('resolve() refuses an option id that was not offered', async () => {
    const p = broker.request(request(), context);
    await tick();
    assert.strictEqual(broker.resolve(chat.shown[0].prompt.id, 'made-up'), false);
    chat.shown[0].answer('made-up'); // a presenter bug counts as a dismissal
    assert.deepStrictEqual((await p).response, { outcome: { outcome: 'selected', optionId: 'reject' } });
  });

  it('dismissed without a choice: reject once', async () => {
    const p = broker.request(request(), context);
    await tick();
    chat.shown[0].answer(undefined);
    const d = await p;
    assert.strictEqual(d.via, 'dismissed');
    assert.deepStrictEqual(d.response, { outcome: { outcome: 'selected', optionId: 'reject' } });
  });

  it('auto-approve rules answer without asking and say so', async () => {
    config = { edit: true };
    const resolved: PermissionDecision[] = [];
    const sub = broker.onDidResolve((d) => resolved.push(d));
    const d = await broker.request(request(), context);
    sub.dispose();
    assert.strictEqual(chat.shown.length, 0);
    assert.strictEqual(d.via, 'auto');
    assert.deepStrictEqual(d.response, { outcome: { outcome: 'selected', optionId: 'allow' } });
    assert.match(d.autoApproved?.description ?? '', /edit/);
    assert.strictEqual(resolved[0].autoApproved?.optionId, 'allow');
  });

  it('per-agent rules, and a missing kind is filled from the transcript', async () => {
    config = { 'Fake Agent': { read: true } };
    const d = await broker.request(request('s1', null), context);
    assert.strictEqual(d.autoApproved?.agent, 'Fake Agent');
    assert.strictEqual(d.prompt.toolCall.kind, 'read');
  });

  it('falls back when the chat cannot present, or when it fails', async () => {
    chat.available = false;
    const p = broker.handle(request(), context);
    await tick();
    assert.strictEqual(chat.shown.length, 0);
    fallback.shown[0].answer('allow');
    assert.deepStrictEqual(await p, { outcome: { outcome: 'selected', optionId: 'allow' } });

    const failing: PermissionPresenter = { present: async () => Promise.reject(new Error('webview gone')) };
    const b2 = new PermissionBroker({ presenters: [failing, fallback], getAutoApproveLayers: () => [] });
    const q = b2.handle(request(), context);
    await tick();
    await tick();
    fallback.shown[1].answer('reject');
    assert.deepStrictEqual(await q, { outcome: { outcome: 'selected', optionId: 'reject' } });
    b2.dispose();
  });
});

describe('bridges: elicitation broker', () => {
  class FakeElicitation implements ElicitationPresenter {
    shown: Array<{ prompt: ElicitationPrompt; signal: AbortSignal; answer: (r: CreateElicitationResponse) => void }> = [];
    present(prompt: ElicitationPrompt, signal: AbortSignal): Promise<CreateElicitationResponse> {
      return new Promise((answer) => this.shown.push({ prompt, signal, answer }));
    }
  }
  let ui: FakeElicitation;
  let broker: ElicitationBroker;
  beforeEach(() => {
    ui = new FakeElicitation();
    broker = new ElicitationBroker({ presenters: [ui] });
  });
  afterEach(() => broker.dispose());

  const form: CreateElicitationRequest = {
    mode: 'form',
    sessionId: 's1',
    message: 'Which database?',
    requestedSchema: { type: 'object', properties: { db: { type: 'string', enum: ['pg', 'mysql'] } }, required: ['db'] },
  };

  it('form mode: accept with content', async () => {
    const p = broker.handle(form);
    await tick();
    assert.strictEqual(ui.shown[0].prompt.mode, 'form');
    assert.deepStrictEqual(Object.keys(ui.shown[0].prompt.requestedSchema?.properties ?? {}), ['db']);
    ui.shown[0].answer({ action: 'accept', content: { db: 'pg' } });
    assert.deepStrictEqual(await p, { action: 'accept', content: { db: 'pg' } });
  });

  it('url mode: decline', async () => {
    const p = broker.handle({ mode: 'url', sessionId: 's1', message: 'Sign in', url: 'https://example.com/auth', elicitationId: 'e1' });
    await tick();
    assert.strictEqual(ui.shown[0].prompt.url, 'https://example.com/auth');
    assert.strictEqual(ui.shown[0].prompt.elicitationId, 'e1');
    ui.shown[0].answer({ action: 'decline' });
    assert.deepStrictEqual(await p, { action: 'decline' });
  });

  it('cancelAll answers cancel, per session; request-scoped ones only with cancelAllPending', async () => {
    const a = broker.handle(form);
    const b = broker.handle({ mode: 'form', requestId: 7, message: 'Token?', requestedSchema: { properties: {} } });
    await tick();
    assert.strictEqual(broker.cancelAll('s1'), 1);
    assert.deepStrictEqual(await a, { action: 'cancel' });
    assert.ok(ui.shown[0].signal.aborted);
    assert.strictEqual(broker.cancelAllPending(), 1);
    assert.deepStrictEqual(await b, { action: 'cancel' });
  });

  it('an unknown mode is -32602, not rendered as a known one', async () => {
    await assert.rejects(broker.handle({ mode: '_custom', sessionId: 's1', message: 'x' }), bridgeError(-32602, 'unsupported_mode'));
  });
});
