#!/usr/bin/env node
// A minimal ACP agent for bench/chat-render.bench.mjs (plain Node, the fixtures' stdio plumbing):
//   messages <n>   n separate agent messages (distinct messageIds) of a few lines of Markdown each, as fast
//                  as possible, then end_turn: builds an n-message transcript in one turn
//   session <n>    a day's session of n items in one turn: a prompt (user_message_chunk), an answer, a tool
//                  call with its output, another answer, repeated; every item says "Message <i>", item 17
//                  also "needle-17" (find's target)
//   stream <n>     n small chunks of one message as fast as possible (like the demo agent's `stream`)
//   code <n>       one fenced code block of n lines, a line per chunk
//   blocks <n>     n sections of mixed Markdown, 16 characters a chunk (see markdown-shapes.mjs)
import { createWire } from '../../test/fixtures/agents/wire.mjs';
import { blockChunks, codeChunks } from './markdown-shapes.mjs';

const wire = createWire();
let counter = 0;

wire.onRequest('initialize', () => ({
  protocolVersion: 1,
  agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
  authMethods: [],
  agentInfo: { name: 'switchboard-bench-transcript-agent', version: '1.0.0' },
}));

wire.onRequest('session/new', () => ({ sessionId: `bench-${++counter}` }));
wire.onNotification('session/cancel', () => undefined);

const update = (sessionId, u) => wire.notify('session/update', { sessionId, update: u });

wire.onRequest('session/prompt', async ({ sessionId, prompt }) => {
  const text = (prompt.find((b) => b.type === 'text')?.text ?? '').trim();
  const [word, count] = text.split(/\s+/);
  const n = Number(count) || 100;
  if (word === 'messages') {
    for (let i = 0; i < n; i++) {
      const md = `**Message ${i}** with \`inline code\` and a [link](https://example.com/${i}).\n\n- first point of ${i}\n- second point\n`;
      update(sessionId, { sessionUpdate: 'agent_message_chunk', messageId: `bench-msg-${i}`, content: { type: 'text', text: md } });
    }
  } else if (word === 'session') {
    for (let i = 0; i < n; i++) {
      const needle = i === 17 ? ' needle-17' : '';
      if (i % 4 === 0) update(sessionId, { sessionUpdate: 'user_message_chunk', messageId: `bench-u-${i}`, content: { type: 'text', text: `Message ${i}: please look at part ${i}${needle}` } });
      else if (i % 4 === 2) {
        const toolCallId = `bench-tool-${i}`;
        update(sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Message ${i}: read src/part${i}.ts`, kind: 'read', status: 'in_progress', locations: [{ path: `/tmp/part${i}.ts` }] });
        update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: `export const part${i} = ${i};\n` } }] });
      } else {
        const md = `**Message ${i}**${needle} with \`inline code\` and a [link](https://example.com/${i}).\n\n- first point of ${i}\n- second point\n`;
        update(sessionId, { sessionUpdate: 'agent_message_chunk', messageId: `bench-a-${i}`, content: { type: 'text', text: md } });
      }
    }
  } else if (word === 'stream') {
    const id = `bench-stream-${Date.now()}`;
    for (let i = 0; i < n; i++) update(sessionId, { sessionUpdate: 'agent_message_chunk', messageId: id, content: { type: 'text', text: `chunk ${i} ` } });
  } else if (word === 'code' || word === 'blocks') {
    const id = `bench-${word}-${Date.now()}`;
    for (const text of word === 'code' ? codeChunks(n) : blockChunks(n)) update(sessionId, { sessionUpdate: 'agent_message_chunk', messageId: id, content: { type: 'text', text } });
  } else {
    update(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `bench agent: ${text}` } });
  }
  return { stopReason: 'end_turn' };
});

wire.start();
