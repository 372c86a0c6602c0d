// An agent's requests reach the bridges with their session's context (agentRequests.ts): the session's
// folders confine fs/*, its agent names the permission card, its transcript gives a tool call's kind, and a
// request for a session that is not open is refused before any bridge sees it. A permission request whose
// agent request ends (the user stopped the turn) is answered cancelled and its card goes, however late.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClientRequestHandlers, IncomingRequestContext, ReadTextFileResponse } from '../../../src/acp';
import { FsBridge } from '../../../src/host/fs/fsBridge';
import { WriteHistory } from '../../../src/host/fs/writeHistory';
import { ElicitationBroker } from '../../../src/host/permissions/elicitationBroker';
import { PermissionBroker, type PermissionPrompt } from '../../../src/host/permissions/permissionBroker';
import { agentRequestHandlers } from '../../../src/host/session/agentRequests';
import { Session, scopedSessionId } from '../../../src/host/session/session';
import type { SessionHost } from '../../../src/host/session/sessionHost';
import type { TurnFiles } from '../../../src/host/session/turn/turnFiles';
import { TerminalBridge } from '../../../src/host/terminal/terminalBridge';
import { bridgeError, makeSandbox, type Sandbox } from './helpers';

const AGENT = 'Context Agent';
const ACP_ID = 'acp-1';

describe('bridges: agent requests carry their session context', () => {
  let box: Sandbox;
  let session: Session;
  let handlers: Partial<ClientRequestHandlers>;
  let asked: PermissionPrompt[];
  let permissions: PermissionBroker;
  let elicitations: ElicitationBroker;
  /** While set, the baseline of a permission request's files is still being taken. */
  let snapshotHeld: Promise<void> | undefined;
  /** While set, the card waits for the user (until the request ends) instead of answering Reject. */
  let userAway = false;
  const disposables: vscode.Disposable[] = [];

  /** Calls the handler of `method` as the connection does. */
  function call<M extends keyof ClientRequestHandlers>(
    method: M,
    params: Parameters<ClientRequestHandlers[M]>[0],
    signal = new AbortController().signal,
  ): Promise<unknown> {
    const handler = handlers[method] as ((p: typeof params, c: IncomingRequestContext) => unknown) | undefined;
    assert.ok(handler, `a handler for ${method}`);
    return Promise.resolve().then(() => handler(params, { method, requestId: 1, signal }));
  }

  beforeEach(() => {
    box = makeSandbox();
    asked = [];
    snapshotHeld = undefined;
    userAway = false;
    permissions = new PermissionBroker({
      presenters: [
        {
          present: async (prompt, signal) => {
            asked.push(prompt);
            if (userAway) await new Promise((ended) => signal.addEventListener('abort', ended, { once: true }));
            return 'reject';
          },
        },
      ],
    });
    const fsBridge = new FsBridge({ confinement: box.confinement, sensitive: box.sensitive, history: new WriteHistory() });
    const terminals = new TerminalBridge({ confinement: box.confinement });
    elicitations = new ElicitationBroker({
      presenters: [{ present: (_prompt, signal) => new Promise((ended) => signal.addEventListener('abort', () => ended({ action: 'accept' }), { once: true })) }],
    });
    disposables.push(permissions, fsBridge, terminals, elicitations);
    // The session's host is not reached by these requests: only its record and transcript are read.
    session = new Session({} as SessionHost, 'tab-1', AGENT, ACP_ID, box.root, []);
    // Baselines are the diff review's business, tested with it.
    const turnFiles = { snapshotAsked: () => snapshotHeld ?? Promise.resolve() } as unknown as TurnFiles;
    handlers = agentRequestHandlers(AGENT, {
      log: vscode.window.createOutputChannel('agent requests test', { log: true }),
      fs: fsBridge,
      terminals,
      permissions,
      elicitations,
      turnFiles,
      sessionOf: (scopedId) => (scopedId === session.scopedId ? session : undefined),
      strangerHost: () => session,
    });
  });
  afterEach(() => {
    for (const d of disposables.splice(0)) d.dispose();
    session.dispose();
    box.dispose();
  });

  it("reads inside the session's folder; a path outside it asks, naming the agent-qualified session", async () => {
    fs.writeFileSync(path.join(box.root, 'a.txt'), 'inside\n');
    fs.writeFileSync(path.join(box.outside, 'b.txt'), 'outside\n');
    const inside = (await call('fs/read_text_file', { sessionId: ACP_ID, path: path.join(box.root, 'a.txt') })) as ReadTextFileResponse;
    assert.strictEqual(inside.content, 'inside\n');
    assert.strictEqual(box.questions.length, 0);
    await assert.rejects(call('fs/read_text_file', { sessionId: ACP_ID, path: path.join(box.outside, 'b.txt') }), bridgeError(-32602, 'access_denied'));
    assert.strictEqual(box.questions[0]?.sessionId, scopedSessionId(AGENT, ACP_ID));
  });

  it('refuses a request for a session that is not open, before any bridge', async () => {
    await assert.rejects(call('fs/read_text_file', { sessionId: 'closed', path: path.join(box.root, 'a.txt') }), bridgeError(-32602, 'unknown_session'));
    await assert.rejects(call('terminal/create', { sessionId: 'closed', command: 'echo' }), bridgeError(-32602, 'unknown_session'));
    assert.strictEqual(box.questions.length, 0);
  });

  it("names the agent on the permission card and takes a tool call's kind from the session's transcript", async () => {
    session.receive({ sessionUpdate: 'tool_call', toolCallId: 'tc1', title: 'Read notes', kind: 'read', locations: undefined });
    const answer = await call('session/request_permission', {
      sessionId: ACP_ID,
      toolCall: { toolCallId: 'tc1', title: 'Read notes' },
      options: [{ optionId: 'reject', name: 'Reject', kind: 'reject_once' }],
    });
    assert.deepStrictEqual(answer, { outcome: { outcome: 'selected', optionId: 'reject' } });
    assert.strictEqual(asked[0]?.agentName, AGENT);
    assert.strictEqual(asked[0]?.toolCall.kind, 'read');
    assert.strictEqual(asked[0]?.sessionId, scopedSessionId(AGENT, ACP_ID));
  });

  const permissionRequest = {
    sessionId: ACP_ID,
    toolCall: { toolCallId: 'tc2', title: 'Edit notes', kind: 'edit' as const },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
    ],
  };

  it('a permission request that ends before its card is shown (Stop while its files are read) is answered cancelled, never shown', async () => {
    let release!: () => void;
    snapshotHeld = new Promise<void>((r) => (release = r));
    const agentRequest = new AbortController();
    const answer = call('session/request_permission', permissionRequest, agentRequest.signal);
    await new Promise((r) => setTimeout(r, 0));
    agentRequest.abort();
    release();
    assert.deepStrictEqual(await answer, { outcome: { outcome: 'cancelled' } });
    assert.strictEqual(asked.length, 0, 'no card for a request that already ended');
    assert.strictEqual(permissions.pending().length, 0);
  });

  it('a permission request that ends while its card waits is answered cancelled and the card goes', async () => {
    userAway = true;
    const agentRequest = new AbortController();
    const answer = call('session/request_permission', permissionRequest, agentRequest.signal);
    for (let i = 0; i < 50 && asked.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.strictEqual(permissions.pending().length, 1, 'the card waits for the user');
    agentRequest.abort();
    assert.deepStrictEqual(await answer, { outcome: { outcome: 'cancelled' } });
    assert.strictEqual(permissions.pending().length, 0, 'the card is gone');
  });

  const elicitationRequest = { sessionId: ACP_ID, mode: 'form' as const, message: 'Which branch?', requestedSchema: { type: 'object' as const, properties: {} } };

  it('an elicitation whose request ended before it arrived is answered cancel and never shown', async () => {
    const agentRequest = new AbortController();
    agentRequest.abort();
    assert.deepStrictEqual(await call('elicitation/create', elicitationRequest, agentRequest.signal), { action: 'cancel' });
    assert.strictEqual(elicitations.pending().length, 0);
  });

  it('an elicitation whose request ends while its form waits is answered cancel and the form goes', async () => {
    const agentRequest = new AbortController();
    const answer = call('elicitation/create', elicitationRequest, agentRequest.signal);
    for (let i = 0; i < 50 && elicitations.pending().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.strictEqual(elicitations.pending().length, 1, 'the form waits for the user');
    agentRequest.abort();
    assert.deepStrictEqual(await answer, { action: 'cancel' });
    assert.strictEqual(elicitations.pending().length, 0, 'the form is gone');
  });
});
