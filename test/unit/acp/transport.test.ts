// Framing, ordering, ids and validation at the wire level, with an in-memory agent.
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { FrameDecoder, type SessionNotification } from '../../../src/acp';
import { AcpMessageReader } from '../../../src/acp/transport/messageReader';
import { capturingLogger } from './helpers';
import { initialized, memoryPeer } from './memoryPeer';

function decode(chunks: Buffer[], options: { maxMessageBytes?: number; framing?: 'auto' | 'ndjson' | 'content-length' } = {}) {
  const frames: string[] = [];
  const oversize: number[] = [];
  let framing: string | undefined;
  const decoder = new FrameDecoder({ frame: (t) => frames.push(t), oversize: (b) => oversize.push(b), framingDetected: (f) => (framing = f) }, options);
  for (const c of chunks) decoder.push(c);
  decoder.end();
  return { frames, oversize, framing };
}

function splitEvery(data: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) out.push(data.subarray(i, i + size));
  return out;
}

describe('FrameDecoder', () => {
  it('splits LF and CRLF lines, across chunks and inside multi-byte characters', () => {
    const data = Buffer.from('{"a":"é😀"}\r\n{"b":1}\n\n{"c":"日本"}\n{"tail":true}', 'utf8');
    for (const size of [1, 2, 3, 5, 7, 1000]) {
      const { frames, framing } = decode(splitEvery(data, size));
      assert.deepEqual(frames, ['{"a":"é😀"}', '{"b":1}', '{"c":"日本"}', '{"tail":true}'], `chunk size ${size}`);
      assert.equal(framing, 'ndjson');
    }
  });

  it('detects Content-Length framing from the first bytes', () => {
    const body = '{"jsonrpc":"2.0","method":"x","params":{"s":"é"}}';
    const data = Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}content-length: 2\r\nContent-Type: x\r\n\r\n{}`, 'utf8');
    for (const size of [1, 4, 16, 1000]) {
      const { frames, framing } = decode(splitEvery(data, size));
      assert.equal(framing, 'content-length');
      assert.deepEqual(frames, [body, '{}'], `chunk size ${size}`);
    }
  });

  it('skips a line over the size limit with a clear error and carries on', () => {
    const big = `{"x":"${'a'.repeat(200)}"}`;
    for (const size of [7, 64, 10000]) {
      const { frames, oversize } = decode(splitEvery(Buffer.from(`{"a":1}\n${big}\n{"b":2}\n`), size), { maxMessageBytes: 100 });
      assert.deepEqual(frames, ['{"a":1}', '{"b":2}'], `chunk size ${size}`);
      assert.equal(oversize.length, 1);
    }
    const { frames, oversize } = decode([Buffer.from(`Content-Length: 300\r\n\r\n${'x'.repeat(300)}Content-Length: 2\r\n\r\n{}`)], { maxMessageBytes: 100 });
    assert.deepEqual(frames, ['{}']);
    assert.deepEqual(oversize, [300]);
  });

  it('defaults to a 32 MiB limit', () => {
    const { oversize } = decode([Buffer.alloc(32 * 1024 * 1024 + 10, 0x61), Buffer.from('\n{}\n')]);
    assert.equal(oversize.length, 1);
  });
});

describe('AcpMessageReader', () => {
  it('logs and skips non-JSON lines and non-JSON-RPC values', async () => {
    const stream = new PassThrough();
    const logger = capturingLogger();
    const reader = new AcpMessageReader(stream, { logger });
    const got: unknown[] = [];
    reader.listen((m) => got.push(m));
    stream.write('starting agent v1.2\n[1,2]\n"str"\n{"jsonrpc":"2.0","id":true,"method":"x"}\n{"jsonrpc":"2.0","method":"ok"}\n');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(got, [{ jsonrpc: '2.0', method: 'ok' }]);
    assert.equal(logger.lines.filter((l) => l.startsWith('warn')).length, 4);
  });

  it('pauses the source while messages are held (backpressure) and resumes after', async () => {
    const stream = new PassThrough();
    const reader = new AcpMessageReader(stream, { logger: capturingLogger() });
    const got: string[] = [];
    reader.setFastPath('session/update', (p) => got.push(`u${(p as { n: number }).n}`));
    reader.listen((m) => got.push(`r${(m as unknown as { id: number }).id}`));
    const lines = [];
    for (let i = 0; i < 5; i++) lines.push(`{"jsonrpc":"2.0","id":${i},"result":{}}`, `{"jsonrpc":"2.0","method":"session/update","params":{"n":${i}}}`);
    stream.write(lines.join('\n') + '\n');
    assert.equal(stream.isPaused(), true, 'held messages pause the stream');
    assert.deepEqual(got, ['r0'], 'nothing overtakes a message vscode-jsonrpc has not dispatched yet');
    // vscode-jsonrpc dispatches one message per macrotask: wait until all ten are through, not a fixed time.
    for (let turns = 0; got.length < 10 && turns < 10_000; turns++) await new Promise((r) => setImmediate(r));
    assert.deepEqual(got, ['r0', 'u0', 'r1', 'u1', 'r2', 'u2', 'r3', 'u3', 'r4', 'u4']);
    assert.equal(stream.isPaused(), false);
  });
});

describe('ordering, ids and validation over vscode-jsonrpc', () => {
  it('a prompt result resolves only after every update sent before it was delivered', async () => {
    const peer = memoryPeer();
    await initialized(peer);
    const seen: SessionNotification[] = [];
    peer.conn.onSessionUpdate((n) => seen.push(n));
    const turn = peer.conn.prompt('s1', [{ type: 'text', text: 'go' }]);
    const request = await peer.nextReceived((m) => m.method === 'session/prompt');
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++) {
      lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: String(i) } } } }));
    }
    lines.push(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { stopReason: 'end_turn' } }));
    // One write: the response sits in the same chunk right behind the updates.
    peer.write(lines.join('\n') + '\n');
    const result = await turn;
    assert.equal(result.stopReason, 'end_turn');
    assert.equal(seen.length, 1000);
  });

  it('handles agent request id 0, ids reused after completion, and string ids', async () => {
    const peer = memoryPeer();
    const asked: Array<string | number> = [];
    peer.conn.handle('fs/read_text_file', (p, context) => (asked.push(context.requestId), { content: p.path }));
    for (const id of [0, 0, 'x-1', 0]) {
      peer.send({ id, method: 'fs/read_text_file', params: { sessionId: 's', path: `/p/${id}` } });
      const answer = await peer.nextReceived((m) => m.id === id && m.result !== undefined && !peer.received.slice(0, -1).includes(m));
      assert.deepEqual(answer.result, { content: `/p/${id}` });
      peer.received.length = 0;
    }
    assert.deepEqual(asked, [0, 0, 'x-1', 0]);
  });

  it('logs and ignores responses for unknown ids, and duplicates', async () => {
    const peer = memoryPeer();
    await initialized(peer);
    peer.send({ id: 42, result: { stopReason: 'end_turn' } });
    peer.send({ id: 0, result: { protocolVersion: 1 } }); // a duplicate of initialize's answer
    peer.send({ id: null, error: { code: -32700, message: 'Parse error' } });
    const warnings = () => peer.logger.lines.filter((l) => l.includes('unknown request id'));
    while (warnings().length < 3) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(warnings().length, 3);
    const list = peer.conn.listSessions();
    const request = await peer.nextReceived((m) => m.method === 'session/list');
    peer.send({ id: request.id, result: { sessions: [] } });
    assert.deepEqual(await list, { sessions: [] });
  });

  it('answers invalid params with -32602 and the issues, unknown methods with -32601 and the method', async () => {
    const peer = memoryPeer();
    peer.conn.handle('fs/write_text_file', () => undefined);
    peer.send({ id: 5, method: 'fs/write_text_file', params: { sessionId: 's', path: 7 } });
    const invalid = await peer.nextReceived((m) => m.id === 5);
    const error = invalid.error as { code: number; data: { method: string; issues: Array<{ path: string[] }> } };
    assert.equal(error.code, -32602);
    assert.equal(error.data.method, 'fs/write_text_file');
    assert.deepEqual(error.data.issues.map((i) => i.path.join('.')).sort(), ['content', 'path']);
    peer.send({ id: 6, method: 'terminal/create', params: { sessionId: 's', command: 'ls' } });
    const unhandled = await peer.nextReceived((m) => m.id === 6);
    assert.deepEqual(unhandled.error, { code: -32601, message: 'Method not found: terminal/create', data: { method: 'terminal/create' } });
    peer.send({ id: 7, method: '_vendor/thing', params: {} });
    assert.deepEqual(((await peer.nextReceived((m) => m.id === 7)).error as { data: unknown }).data, { method: '_vendor/thing' });
    peer.send({ method: 'some/unknown_notification', params: {} });
    peer.send({ method: '_vendor/note', params: {} });
    peer.send({ id: 8, method: 'fs/write_text_file', params: { sessionId: 's', path: '/a', content: '' } });
    assert.deepEqual((await peer.nextReceived((m) => m.id === 8)).result, {});
  });

  it('maps a thrown handler error to -32603 and an aborted handler to -32800 on $/cancel_request', async () => {
    const peer = memoryPeer();
    let slowStarted!: () => void;
    const started = new Promise<void>((r) => (slowStarted = r));
    peer.conn.handle('fs/read_text_file', (p, context) => {
      if (p.path === '/boom') throw new Error('disk on fire');
      slowStarted();
      return new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    });
    peer.send({ id: 1, method: 'fs/read_text_file', params: { sessionId: 's', path: '/boom' } });
    const failed = (await peer.nextReceived((m) => m.id === 1)).error as { code: number; message: string };
    assert.equal(failed.code, -32603);
    assert.match(failed.message, /disk on fire/);
    peer.send({ id: 2, method: 'fs/read_text_file', params: { sessionId: 's', path: '/slow' } });
    await started;
    peer.send({ method: '$/cancel_request', params: { requestId: 2 } });
    const cancelled = (await peer.nextReceived((m) => m.id === 2)).error as { code: number };
    assert.equal(cancelled.code, -32800);
  });

  it('reports an invalid result as InvalidResponseError and a malformed error object as -32603', async () => {
    const peer = memoryPeer();
    await initialized(peer);
    const created = peer.conn.newSession({ cwd: '/' });
    const request = await peer.nextReceived((m) => m.method === 'session/new');
    peer.send({ id: request.id, result: { sessionId: 12 } });
    await assert.rejects(created, /invalid result for session\/new: sessionId/);
    const second = peer.conn.newSession({ cwd: '/' });
    const request2 = await peer.nextReceived((m) => m.method === 'session/new' && m.id !== request.id);
    peer.send({ id: request2.id, error: 'nope' });
    await assert.rejects(second, (e: { code?: number }) => e.code === -32603);
  });

  it('emits trace events with direction, method, id and latency', async () => {
    const events: Array<{ direction: string; type: string; method?: string; id?: unknown; latencyMs?: number }> = [];
    const peer = memoryPeer({ trace: (e) => events.push(e) });
    await initialized(peer);
    assert.deepEqual(events.map((e) => [e.direction, e.type, e.method, e.id]), [
      ['send', 'request', 'initialize', 0],
      ['receive', 'response', 'initialize', 0],
    ]);
    assert.equal(typeof events[1].latencyMs, 'number');
  });
});
