// Steering (`_session/steering`, Claude Agent's extension request) against the scripted fake agent: the
// capability read from the initialize result, the request as Claude Agent's parser takes it (its prompt made of
// the schema's ContentBlocks, the opt-in to `promptRequired`), and every answer: injected, promptRequired,
// startedNewTurn, an error, an answer of no known kind, and none at all.
import Ajv2020 from 'ajv/dist/2020';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AcpRequestError, CapabilityNotSupportedError, InvalidResponseError, TimeoutError, type SessionNotification } from '../../../src/acp';
import { SteerResultSchema } from '../../../src/acp/schema/steering';
import { CLIENT_INFO, text } from './helpers';
import { schemaCheckedFakeAgents } from './schemaValidator';

const SCHEMA = path.resolve(__dirname, '../../../../node_modules/@agentclientprotocol/sdk/schema/v1/schema.json');

/** Checks a value against one of the official schema's definitions. */
function schemaDef(name: string): (value: unknown) => string | undefined {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(JSON.parse(fs.readFileSync(SCHEMA, 'utf8')) as object, 'acp');
  const validate = ajv.getSchema(`acp#/$defs/${name}`);
  if (!validate) throw new Error(`no $def ${name}`);
  return (value) => (validate(value) ? undefined : JSON.stringify(validate.errors?.slice(0, 3)));
}

describe('acp: steering (_session/steering) against the fake agent', function () {
  this.timeout(20_000);
  const start = schemaCheckedFakeAgents('schema.json');

  async function session(args = ['--steering']) {
    const h = start(args);
    const init = await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await h.conn.newSession({ cwd: '/work' });
    const said: string[] = [];
    h.conn.onSessionUpdate((n: SessionNotification) => {
      if (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text') said.push(n.update.content.text);
    });
    return { h, init, sessionId, said };
  }

  /** Starts a `steerable` turn; resolves (with the turn's end, wrapped) once the agent says it is waiting. */
  async function runningTurn(s: Awaited<ReturnType<typeof session>>) {
    const waiting = () => s.said.filter((t) => t === 'waiting for a steer').length;
    const before = waiting();
    const end = s.h.conn.prompt(s.sessionId, [text('steerable')]);
    await waitFor(() => waiting() > before);
    return { end };
  }

  it('reads the capability from _meta.steering.supported; an agent without it is refused before anything is sent', async () => {
    const steers = await session();
    assert.equal(steers.init.agentCapabilities.steering, true);
    assert.equal(steers.h.conn.supports('_session/steering'), true);
    const plain = await session([]);
    assert.equal(plain.init.agentCapabilities.steering, false);
    await assert.rejects(plain.h.conn.steer(plain.sessionId, [text('hello')]), CapabilityNotSupportedError);
    assert.ok(!plain.h.sent.some((e) => e.method === '_session/steering'), 'no request went out');
  });

  it('injected: the text reaches the running turn, which then ends; the request is what Claude Agent parses', async () => {
    const s = await session();
    const { end: turn } = await runningTurn(s);
    assert.deepEqual(await s.h.conn.steer(s.sessionId, [text('use tabs, not spaces')]), { outcome: 'injected' });
    assert.equal((await turn).stopReason, 'end_turn');
    assert.ok(s.said.includes('steered: use tabs, not spaces'), s.said.join('|'));
    const request = s.h.sent.find((e) => e.method === '_session/steering')?.json as { params: { sessionId: string; prompt: unknown[]; _meta: unknown } };
    assert.equal(request.params.sessionId, s.sessionId);
    assert.ok(request.params.prompt.length > 0, 'Claude Agent refuses an empty prompt array');
    const contentBlock = schemaDef('ContentBlock');
    for (const block of request.params.prompt) assert.equal(contentBlock(block), undefined, JSON.stringify(block));
    assert.deepEqual(request.params._meta, { steering: { idleBehavior: 'promptRequired' } }, 'the message stays ours when no turn runs');
  });

  it('promptRequired when no turn runs (the opt-in), and when the turn ended first (a race); startedNewTurn from an agent that started one', async () => {
    const s = await session();
    assert.deepEqual(await s.h.conn.steer(s.sessionId, [text('after the turn')]), { outcome: 'promptRequired', reason: 'noRunningTurn' });
    const { end: turn } = await runningTurn(s);
    const raced = await s.h.conn.steer(s.sessionId, [text('race me')]);
    assert.equal(raced.outcome, 'promptRequired');
    assert.equal((await turn).stopReason, 'end_turn', 'the turn ended before the answer');
    const { end: next } = await runningTurn(s);
    assert.equal((await s.h.conn.steer(s.sessionId, [text('new-turn please')])).outcome, 'startedNewTurn');
    await next;
    await waitFor(() => s.said.includes('new turn: new-turn please'));
  });

  it('an error answer, an outcome of no known kind and no answer at all reject with what happened', async () => {
    const s = await session();
    const { end: turn } = await runningTurn(s);
    await assert.rejects(s.h.conn.steer(s.sessionId, [text('error please')]), (e: unknown) => e instanceof AcpRequestError && e.code === -32603);
    await assert.rejects(s.h.conn.steer(s.sessionId, [text('garbage please')]), InvalidResponseError);
    await assert.rejects(s.h.conn.steer(s.sessionId, [text('silent please')], { timeoutMs: 300 }), TimeoutError);
    // The turn still runs and still takes a steer.
    assert.equal((await s.h.conn.steer(s.sessionId, [text('finally')])).outcome, 'injected');
    await turn;
  });

  it('the answer schema keeps the three outcomes (and the reason) and refuses anything else', () => {
    for (const outcome of ['injected', 'startedNewTurn', 'promptRequired']) assert.equal(SteerResultSchema.parse({ outcome }).outcome, outcome);
    assert.equal(SteerResultSchema.parse({ outcome: 'promptRequired', reason: 'noRunningTurn' }).reason, 'noRunningTurn');
    assert.equal(SteerResultSchema.parse({ outcome: 'injected', reason: 42 }).reason, '', 'a reason of the wrong type is not fatal');
    for (const bad of [null, {}, { outcome: 'queued' }, { outcome: 1 }, 'injected', []]) assert.equal(SteerResultSchema.safeParse(bad).success, false, JSON.stringify(bad));
  });
});

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
