// Fuzz: >=100,000 random and mutated frames into a live connection. No crash, no
// unhandled rejection, every pending request settles, and the connection still answers.
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { AcpClientConnection, TranscriptState, type Logger } from '../../../src/acp';

const FRAMES = Number(process.env.ACP_FUZZ_FRAMES ?? 110_000);

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALID_UPDATES: unknown[] = [
  { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' }, messageId: 'm' },
  { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'x', kind: 'edit', content: [{ type: 'diff', path: '/a', oldText: null, newText: 'b' }] },
  { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', locations: [{ path: '/a', line: 1 }] },
  { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }] },
  { sessionUpdate: 'usage_update', used: 1, size: 2 },
  { sessionUpdate: 'config_option_update', configOptions: [{ id: 'm', name: 'M', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] }] },
  { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: { type: 'text', text: 's' } },
  { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [] } },
];

const WEIRD_VALUES: unknown[] = [null, true, 0, -1, 1e308, '', 'x', [], {}, [null], { a: {} }, 'é😀', NaN];

function mutate(value: unknown, r: () => number, depth = 0): unknown {
  if (depth > 4 || r() < 0.3) return WEIRD_VALUES[Math.floor(r() * WEIRD_VALUES.length)];
  if (Array.isArray(value)) return value.map((v) => (r() < 0.3 ? mutate(v, r, depth + 1) : v));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const roll = r();
      if (roll < 0.1) continue; // drop a field
      out[k] = roll < 0.35 ? mutate(v, r, depth + 1) : v;
    }
    if (r() < 0.1) out[`extra${Math.floor(r() * 10)}`] = mutate({}, r, depth + 1);
    return out;
  }
  return WEIRD_VALUES[Math.floor(r() * WEIRD_VALUES.length)];
}

function frame(r: () => number, pendingIds: number[]): Buffer {
  const roll = r();
  const line = (o: unknown) => Buffer.from(`${JSON.stringify(o)}\n`);
  const update = VALID_UPDATES[Math.floor(r() * VALID_UPDATES.length)];
  if (roll < 0.3) return line({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update } });
  if (roll < 0.55) return line({ jsonrpc: '2.0', method: 'session/update', params: mutate({ sessionId: 's', update }, r) });
  if (roll < 0.62) {
    const text = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update } });
    return Buffer.from(`${text.slice(0, Math.floor(r() * text.length))}\n`); // truncated JSON
  }
  if (roll < 0.67) return line(mutate({ jsonrpc: '2.0', id: Math.floor(r() * 5), method: 'fs/read_text_file', params: { sessionId: 's', path: '/x' } }, r));
  if (roll < 0.72) return line({ jsonrpc: '2.0', id: Math.floor(r() * 1e6) + 1000, result: mutate({ stopReason: 'end_turn' }, r) }); // unknown ids
  if (roll < 0.75 && pendingIds.length > 0) {
    const id = pendingIds.splice(Math.floor(r() * pendingIds.length), 1)[0]; // out-of-order answers
    return line(r() < 0.5 ? { jsonrpc: '2.0', id, result: mutate({ sessions: [] }, r) } : { jsonrpc: '2.0', id, error: mutate({ code: -32000, message: 'x' }, r) });
  }
  if (roll < 0.8) {
    const bytes = Buffer.alloc(1 + Math.floor(r() * 40));
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(r() * 256);
    return Buffer.concat([bytes, Buffer.from('\n')]); // invalid UTF-8 / binary garbage
  }
  if (roll < 0.82) {
    const depth = 1 + Math.floor(r() * 5000);
    return Buffer.from(`${'['.repeat(depth)}${']'.repeat(r() < 0.5 ? depth : depth - 1)}\n`); // deep nesting
  }
  if (roll < 0.821) return line({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x'.repeat(200_000 + Math.floor(r() * 800_000)) } } } }); // huge strings
  if (roll < 0.9) return line({ jsonrpc: '2.0', method: `random/${Math.floor(r() * 100)}`, params: mutate({ a: 1 }, r) });
  if (roll < 0.95) return line(mutate({ jsonrpc: '2.0', id: 1, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [] } }, r));
  return Buffer.from(`${'{"jsonrpc":"2.0",'.repeat(1 + Math.floor(r() * 3))}\r\n`);
}

describe('fuzz: hostile agent output', function () {
  this.timeout(60000);

  it(`survives ${FRAMES.toLocaleString('en')} random and mutated frames and still answers`, async () => {
    const r = rng(0xacb);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const counts = { info: 0, warn: 0, error: 0 };
    const logger: Logger = { info: () => counts.info++, warn: () => counts.warn++, error: () => counts.error++ };
    const agentStdout = new PassThrough();
    const agentStdin = new PassThrough();
    const answers: Array<Record<string, unknown>> = [];
    let pending = '';
    agentStdin.on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const l of lines) if (l) answers.push(JSON.parse(l) as Record<string, unknown>);
    });
    const conn = new AcpClientConnection(agentStdout, agentStdin, { logger, maxMessageBytes: 4 * 1024 * 1024 });
    conn.handle('fs/read_text_file', (p) => ({ content: p.path }));
    conn.handle('session/request_permission', () => ({ outcome: { outcome: 'cancelled' } }));
    const state = new TranscriptState('s');
    let updates = 0;
    conn.onSessionUpdate((n) => {
      updates++;
      state.apply(n.update);
    });

    const init = conn.initialize({ clientInfo: { name: 'fuzz', version: '0' } });
    agentStdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { list: {} } } } })}\n`);
    await init;

    // Requests whose answers the fuzzer sends out of order (some valid, some not).
    const settled: Array<Promise<unknown>> = [];
    const pendingIds: number[] = [];
    for (let i = 0; i < 50; i++) {
      settled.push(conn.listSessions().then(() => 'ok', (e: Error) => e.name));
      pendingIds.push(i + 1);
    }

    let sent = 0;
    while (sent < FRAMES) {
      const batch: Buffer[] = [];
      for (let i = 0; i < 500 && sent < FRAMES; i++, sent++) batch.push(frame(r, pendingIds));
      const data = Buffer.concat(batch);
      // Random chunk boundaries, including inside multi-byte characters.
      let at = 0;
      while (at < data.length) {
        const size = 1 + Math.floor(r() * 65536);
        agentStdout.write(data.subarray(at, at + size));
        at += size;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const id of pendingIds) agentStdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { sessions: [] } })}\n`);

    const outcomes = await Promise.all(settled);
    assert.equal(outcomes.length, 50, 'every out-of-order request settled');

    // Still answering both ways.
    const list = conn.listSessions();
    const id = 51;
    agentStdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { sessions: [{ sessionId: 'after', cwd: '/' }] } })}\n`);
    assert.deepEqual((await list).sessions, [{ sessionId: 'after', cwd: '/' }]);
    agentStdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'final', method: 'fs/read_text_file', params: { sessionId: 's', path: '/still-alive' } })}\n`);
    await waitFor(() => answers.some((a) => a.id === 'final'));
    assert.deepEqual(answers.find((a) => a.id === 'final')!.result, { content: '/still-alive' });

    await new Promise((resolve) => setTimeout(resolve, 50));
    process.off('unhandledRejection', onUnhandled);
    assert.deepEqual(unhandled, []);
    assert.equal(conn.isClosed, false);
    assert.ok(updates > FRAMES / 4, `updates delivered: ${updates}`);
    assert.ok(counts.warn > FRAMES / 10, 'garbage was logged');
    assert.ok(state.transcript.items.length > 0);
    conn.close();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}
