// What a session waits for the user for, read from its view's changes (src/host/attention/waits.ts): one
// wait per turn end, per permission request and per elicitation, the same wait again for a repeated view (so
// no second notification), over once a new turn starts or the request is answered; sign-in per agent.
import * as assert from 'assert';
import type { BackendSessionView } from '../../../src/chat/chatBackend';
import type { AgentView, PendingPermission } from '../../../src/shared/chatState';
import { sessionWait, signInWait, waitMessage } from '../../../src/host/attention/waits';

const view = (o: Partial<BackendSessionView> = {}): BackendSessionView => ({
  sessionId: 's1',
  agentId: 'Fake',
  title: 'Parser work',
  turn: 'idle',
  capabilities: {} as BackendSessionView['capabilities'],
  permissions: [],
  elicitations: [],
  ...o,
});
const permission = (requestId: string): PendingPermission => ({ requestId, toolCallId: 't1', title: 'Write file', options: [] });
const at = (turnEnds: number, stopReason?: string) => ({ agentName: 'Fake Agent', stopReason, turnEnds });

describe('attention: waits from session views', () => {
  it('a turn that ends is a wait of its own each time, with its stop reason in the words', () => {
    const running = view({ turn: 'running' });
    const first = sessionWait(running, view(), at(1, 'end_turn'));
    const second = sessionWait(running, view(), at(2, 'max_tokens'));
    assert.ok(first && second);
    assert.strictEqual(first.kind, 'ended');
    assert.notStrictEqual(first.identity, second.identity);
    assert.strictEqual(waitMessage(first), 'Fake Agent finished in “Parser work”.');
    assert.match(waitMessage(second), /^Fake Agent stopped: it reached its token limit in “Parser work”\.$/);
    assert.match(waitMessage({ ...second, detail: 'something_new' }), /stopped \(something_new\)/);
  });

  it('a failed turn says its error', () => {
    const w = sessionWait(view({ turn: 'running' }), view({ error: { message: 'the endpoint failed' } }), at(1));
    assert.ok(w);
    assert.strictEqual(w.kind, 'failed');
    assert.strictEqual(waitMessage(w), "Fake Agent's turn failed in “Parser work”: the endpoint failed");
  });

  it('a pending permission is one wait however often the view repeats it, and over once answered', () => {
    const asking = view({ turn: 'running', permissions: [permission('p1')] });
    const a = sessionWait(view({ turn: 'running' }), asking, at(0));
    const b = sessionWait(asking, { ...asking }, at(0));
    assert.ok(a && b);
    assert.strictEqual(a.kind, 'permission');
    assert.strictEqual(a.requestId, 'p1');
    assert.strictEqual(a.identity, b.identity, 'the same wait: no second notification');
    assert.strictEqual(sessionWait(asking, view({ turn: 'running' }), at(0)), null, 'answered: the wait is over');
    assert.notStrictEqual(sessionWait(asking, view({ turn: 'running', permissions: [permission('p2')] }), at(0))?.identity, a.identity);
  });

  it('a new turn ends the wait; an unrelated change is no wait', () => {
    assert.strictEqual(sessionWait(view(), view({ turn: 'running' }), at(1)), null);
    assert.strictEqual(sessionWait(undefined, view({ turn: 'running' }), at(0)), null);
    assert.strictEqual(sessionWait(view(), view({ title: 'Renamed' }), at(1)), undefined);
    assert.strictEqual(sessionWait(undefined, view(), at(0)), undefined, 'a session that just opened waits for nothing');
  });

  it('an elicitation is a wait; a session with no title is named "New session"', () => {
    const w = sessionWait(view({ turn: 'running', title: undefined }), view({ turn: 'running', title: undefined, elicitations: [{ requestId: 'e1', mode: 'url', message: 'Open the page', url: 'https://x' }] }), at(0));
    assert.ok(w);
    assert.strictEqual(waitMessage(w), 'Fake Agent asks you a question in “New session”: Open the page');
  });

  it('sign-in: a wait when the agent starts to need it, over when it no longer does', () => {
    const agent = (status: AgentView['status']): AgentView => ({ id: 'Fake', name: 'Fake Agent', status });
    const w = signInWait(agent('ready'), agent('auth_required'));
    assert.ok(w);
    assert.strictEqual(w.key, 'agent:Fake');
    assert.strictEqual(waitMessage(w), 'Fake Agent needs you to sign in.');
    assert.strictEqual(signInWait(agent('auth_required'), agent('auth_required')), undefined);
    assert.strictEqual(signInWait(agent('auth_required'), agent('ready')), null);
  });
});
