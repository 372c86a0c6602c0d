// Plans by id (unstable plan_update / plan_removed): what we advertise, how the reducer keeps one card per
// planId, what a broken plan_update becomes, how a file plan's card names its file, and the chat action.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { clientCapabilitiesFor, parseSessionUpdate, TranscriptState, type ClientRequestMethod } from '../../../src/acp';
import { messageHandlers } from '../../../src/chat/messageHandlers';
import type { FilesPort, HostUi } from '../../../src/chat/chatBackend';
import { fakeActions, FakeBackend } from '../chat/fakeChatBackend';
import type { PromptQueue } from '../../../src/chat/promptQueue';
import type { SessionRequests } from '../../../src/chat/sessionRequests';
import type { HostToWebviewMessage } from '../../../src/shared/messages';
import { filePathOfUri, planFileName } from '../../../src/shared/planFile';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { applyTranscriptOps } from '../../../src/shared/transcriptOps';
import { parseWebviewMessage } from '../../../src/shared/webviewMessageSchema';
import { memoryPeer, INIT_RESULT } from '../acp/memoryPeer';

const u = (raw: Record<string, unknown>) => parseSessionUpdate(raw);
const planUpdate = (plan: Record<string, unknown>) => u({ sessionUpdate: 'plan_update', plan });
const plans = (items: readonly TranscriptItem[]) => items.filter((i) => i.kind === 'plan');

/** Applies updates to the reducer and the same ops to a copy (the webview's way): both must agree. */
function reduce(...updates: ReturnType<typeof u>[]) {
  const state = new TranscriptState('s');
  let copy = structuredClone(state.transcript);
  for (const update of updates) copy = applyTranscriptOps(copy, state.apply(update));
  assert.deepEqual(copy, state.transcript, 'the ops rebuild the same transcript');
  return state.transcript.items;
}

describe('plans by id', () => {
  describe('clientCapabilities', () => {
    const schema = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, '../../../../node_modules/@agentclientprotocol/sdk/schema/v1/schema.unstable.json'), 'utf8'),
    ) as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(schema, 'acp');
    const validate = ajv.getSchema('acp#/$defs/ClientCapabilities');

    it('advertise plan: {} and validate against schema.unstable.json', () => {
      const all: ClientRequestMethod[] = ['fs/read_text_file', 'fs/write_text_file', 'terminal/create', 'terminal/output', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release', 'elicitation/create'];
      for (const registered of [new Set<ClientRequestMethod>(), new Set(all)]) {
        const caps = clientCapabilitiesFor(registered, { terminalAuth: true }) as Record<string, unknown>;
        assert.deepEqual(caps.plan, {});
        assert.ok(validate, 'the schema defines ClientCapabilities');
        assert.ok(validate(caps), JSON.stringify(validate.errors));
      }
    });

    it('are what initialize sends', async () => {
      const peer = memoryPeer();
      const init = peer.conn.initialize({ clientInfo: { name: 't', version: '0' } });
      const request = await peer.nextReceived((m) => m.method === 'initialize');
      const caps = (request.params as { clientCapabilities: Record<string, unknown> }).clientCapabilities;
      assert.deepEqual(caps.plan, {});
      assert.ok(validate?.(caps), JSON.stringify(validate?.errors));
      peer.send({ id: request.id, result: INIT_RESULT });
      await init;
      peer.conn.close();
    });
  });

  describe('reducer', () => {
    it('keeps a file plan, a markdown plan and an items plan as one card each', () => {
      const items = reduce(
        planUpdate({ type: 'file', planId: 'f', uri: 'file:///ws/plan.md' }),
        planUpdate({ type: 'markdown', planId: 'm', content: '# Plan' }),
        planUpdate({ type: 'items', planId: 'i', entries: [{ content: 'a', priority: 'high', status: 'pending' }] }),
      );
      assert.deepEqual(
        plans(items).map(({ id: _id, ...rest }) => rest),
        [
          { kind: 'plan', planId: 'f', entries: [], fileUri: 'file:///ws/plan.md' },
          { kind: 'plan', planId: 'm', entries: [], markdown: '# Plan' },
          { kind: 'plan', planId: 'i', entries: [{ content: 'a', priority: 'high', status: 'pending' }] },
        ],
      );
    });

    it('replaces a plan updated in place (same planId), also when its type changes, and keeps its place and id', () => {
      const items = reduce(
        planUpdate({ type: 'file', planId: 'p', uri: 'file:///ws/v1.md' }),
        u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'between' } }),
        planUpdate({ type: 'file', planId: 'p', uri: 'file:///ws/v2.md' }),
      );
      assert.equal(plans(items).length, 1);
      assert.equal(items[0].kind === 'plan' && items[0].fileUri, 'file:///ws/v2.md');
      const retyped = reduce(planUpdate({ type: 'file', planId: 'p', uri: 'file:///ws/v1.md' }), planUpdate({ type: 'markdown', planId: 'p', content: 'now inline' }));
      assert.deepEqual(retyped, [{ kind: 'plan', id: 'i1', planId: 'p', entries: [], markdown: 'now inline' }], 'no fileUri left behind');
    });

    it('shows two planIds as two cards and removes only the one named; an unknown id is ignored', () => {
      const state = new TranscriptState('s');
      state.apply(planUpdate({ type: 'file', planId: 'a', uri: 'file:///ws/a.md' }));
      state.apply(planUpdate({ type: 'file', planId: 'b', uri: 'file:///ws/b.md' }));
      assert.deepEqual(plans(state.transcript.items).map((p) => p.kind === 'plan' && p.planId), ['a', 'b']);
      assert.deepEqual(state.apply(u({ sessionUpdate: 'plan_removed', planId: 'nope' })), [], 'no ops for an unknown id');
      const ops = state.apply(u({ sessionUpdate: 'plan_removed', planId: 'a' }));
      assert.deepEqual(ops, [{ op: 'remove', index: 0, id: 'i1' }]);
      assert.deepEqual(plans(state.transcript.items).map((p) => p.kind === 'plan' && p.planId), ['b']);
      // After the removal the index still finds b: an update replaces it rather than adding a card.
      state.apply(planUpdate({ type: 'file', planId: 'b', uri: 'file:///ws/b2.md' }));
      assert.deepEqual(state.transcript.items, [{ kind: 'plan', id: 'i2', planId: 'b', entries: [], fileUri: 'file:///ws/b2.md' }]);
    });

    for (const [what, plan] of [
      ['a missing uri', { type: 'file', planId: 'p' }],
      ['a non-string uri', { type: 'file', planId: 'p', uri: 42 }],
      ['a non-string planId', { type: 'file', planId: 7, uri: 'file:///ws/plan.md' }],
    ] as const) {
      it(`a file plan_update with ${what} makes no plan card; the rest of the session continues`, () => {
        const update = planUpdate(plan);
        assert.equal(update.sessionUpdate, '$unsupported');
        const items = reduce(update, u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'still here' } }), planUpdate({ type: 'markdown', planId: 'm', content: 'ok' }));
        assert.deepEqual(plans(items).map((p) => p.kind === 'plan' && p.planId), ['m']);
        assert.deepEqual(items.map((i) => i.kind), ['unsupported', 'agent_message', 'plan']);
      });
    }
  });

  it('the connection logs a plan_update it could not understand (once per type) and delivers the next updates', async () => {
    const peer = memoryPeer();
    const seen: string[] = [];
    peer.conn.onSessionUpdate((n) => seen.push(n.update.sessionUpdate));
    const notify = (update: Record<string, unknown>) => peer.send({ method: 'session/update', params: { sessionId: 's', update } });
    notify({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'p' } });
    notify({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'p', uri: null } });
    notify({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'p', uri: 'file:///ws/plan.md' } });
    const deadline = Date.now() + 5000;
    while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, ['$unsupported', '$unsupported', 'plan_update']);
    const logged = peer.logger.lines.filter((l) => l.includes('"plan_update" was not understood'));
    assert.equal(logged.length, 1, peer.logger.lines.join('\n'));
    assert.match(logged[0], /plan\.uri/);
    peer.conn.close();
  });

  describe('file plan names (display)', () => {
    it('reads file: URIs, decoding escapes, and refuses anything else', () => {
      assert.equal(filePathOfUri('file:///ws/docs/my%20plan.md'), '/ws/docs/my plan.md');
      assert.equal(filePathOfUri('file://localhost/ws/plan.md'), '/ws/plan.md');
      assert.equal(filePathOfUri('file:///c:/ws/plan.md'), 'c:/ws/plan.md');
      for (const bad of ['plan.md', './plan.md', '/ws/plan.md', 'https://x/plan.md', 'file:plan.md', 'file:///ws/%E0%A4%A.md']) assert.equal(filePathOfUri(bad), undefined, bad);
    });

    it('is the base name and the path relative to the session folder holding it, else the whole path', () => {
      assert.deepEqual(planFileName('file:///ws/docs/plan.md', ['/other', '/ws/']), { name: 'plan.md', where: 'docs/plan.md' });
      assert.deepEqual(planFileName('file:///ws2/plan.md', ['/ws']), { name: 'plan.md', where: '/ws2/plan.md' }, 'a sibling folder with the same prefix is outside');
      assert.deepEqual(planFileName('file:///home/me/.claude/plans/p.md'), { name: 'p.md', where: '/home/me/.claude/plans/p.md' });
      assert.deepEqual(planFileName('docs/plan.md', ['/ws']), { name: 'docs/plan.md' });
    });
  });

  describe('the openPlanFile chat action', () => {
    function handlers(openPlanFile: FilesPort['openPlanFile']) {
      const replies: HostToWebviewMessage[] = [];
      const logs: string[] = [];
      const backend = new FakeBackend();
      backend.files.openPlanFile = openPlanFile;
      const ui = { log: (_level: string, message: string) => logs.push(message) } as unknown as HostUi;
      const h = messageHandlers({ backend, ui, actions: fakeActions(), queue: {} as PromptQueue, requests: {} as SessionRequests, isOpen: () => true, sendInit: () => undefined, toast: () => undefined, reply: (m) => replies.push(m) });
      return { h, replies, logs };
    }

    it('is a well-formed webview message only with a session, a plan id and the uri the card showed', () => {
      assert.ok(parseWebviewMessage({ type: 'openPlanFile', sessionId: 's', planId: 'p', uri: 'file:///ws/plan.md' }).ok);
      assert.equal(parseWebviewMessage({ type: 'openPlanFile', sessionId: 's', planId: '', uri: 'x' }).ok, false);
      assert.equal(parseWebviewMessage({ type: 'openPlanFile', sessionId: 's', planId: 'p' }).ok, false);
    });

    it('answers the card: nothing to say when it opened, the reason (logged) when it did not', async () => {
      const opened: string[] = [];
      const ok = handlers(async (sessionId, planId) => void opened.push(`${sessionId}/${planId}`));
      await ok.h.openPlanFile({ type: 'openPlanFile', sessionId: 's', planId: 'p', uri: 'file:///ws/plan.md' });
      assert.deepEqual(opened, ['s/p']);
      assert.deepEqual(ok.replies, [{ type: 'planFileOpened', sessionId: 's', planId: 'p', uri: 'file:///ws/plan.md' }]);

      const failing = handlers(() => Promise.reject(new Error('The plan file /ws/plan.md does not exist.')));
      await failing.h.openPlanFile({ type: 'openPlanFile', sessionId: 's', planId: 'p', uri: 'file:///ws/plan.md' });
      assert.deepEqual(failing.replies, [{ type: 'planFileOpened', sessionId: 's', planId: 'p', uri: 'file:///ws/plan.md', error: 'The plan file /ws/plan.md does not exist.' }]);
      assert.match(failing.logs.join('\n'), /does not exist/);
    });
  });
});
