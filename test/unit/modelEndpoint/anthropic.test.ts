// The scripted Anthropic Messages API over real HTTP: requests shaped as Claude Code 2.1.318 (inside
// claude-agent-acp 0.101.0) and GitHub Copilot 1.0.102 (BYOK, provider type anthropic) send them
// (measured), and the events their Anthropic clients read back.
import * as assert from 'assert';
import { ModelEndpoint, type Step } from '../../fixtures/modelEndpoint/endpoint';
import { AnthropicApi, SIDE_SUGGESTION, SIDE_TITLE } from '../../fixtures/modelEndpoint/anthropic';

const tool = (name: string, props: string[]) => ({
  name,
  description: name,
  input_schema: { type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])), required: props.slice(0, 1) },
});
/** Claude Code's tools (the ones the mapping uses, and some it must ignore). */
const CLAUDE_TOOLS = [
  tool('Agent', ['description', 'prompt', 'subagent_type']),
  tool('Bash', ['command', 'timeout', 'description', 'run_in_background']),
  tool('Edit', ['file_path', 'old_string', 'new_string', 'replace_all']),
  tool('Read', ['file_path', 'offset', 'limit']),
  tool('ToolSearch', ['query', 'max_results']),
  tool('Write', ['file_path', 'content']),
];
/** Copilot's (lower-case names; `edit` clashes with nothing of Claude's because names are case-sensitive). */
const COPILOT_TOOLS = [
  tool('bash', ['command', 'description', 'shellId', 'mode']),
  tool('view', ['path', 'view_range']),
  tool('create', ['path', 'file_text']),
  tool('edit', ['path', 'old_str', 'new_str']),
  tool('grep', ['pattern', 'paths']),
];

/** Claude Code 2.1.318 sends the environment block as a system-role message after the user's. */
function claudeBody(extra: Record<string, unknown> = {}) {
  return {
    model: 'claude-opus-5-5',
    max_tokens: 128000,
    system: [{ type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.318' }, { type: 'text', text: 'You are a Claude agent.' }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Fix the notes' }] },
      { role: 'system', content: '# Environment\n - Primary working directory: /proj\n - Is a git repository: false' },
    ],
    tools: CLAUDE_TOOLS,
    thinking: { type: 'adaptive', display: 'updates' },
    stream: true,
    ...extra,
  };
}

function copilotBody() {
  return {
    model: 'claude-sonnet-4.5',
    max_tokens: 32000,
    system: [{ type: 'text', text: 'You are GitHub Copilot, an AI coding agent built by GitHub.' }],
    messages: [{ role: 'user', content: [{ type: 'text', text: '<environment_context>\n* Current working directory: /work/copilot\n</environment_context>\nEdit notes.txt' }] }],
    tools: COPILOT_TOOLS,
    stream: true,
  };
}

interface SseEvent {
  event: string;
  data: { type: string; [key: string]: unknown };
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as SseEvent['data'];
      return { event, data };
    });
}

interface Delta {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  partial_json?: string;
}

/** Rebuilds the message the way an Anthropic client does: blocks by index, deltas joined. */
function assemble(events: SseEvent[]) {
  const blocks: Array<Record<string, unknown>> = [];
  const json: string[] = [];
  let stopReason: unknown;
  let stopSequence: unknown;
  let outputTokens: unknown;
  for (const { data } of events) {
    const index = data.index as number;
    if (data.type === 'content_block_start') {
      blocks[index] = { ...(data.content_block as Record<string, unknown>) };
      json[index] = '';
    } else if (data.type === 'content_block_delta') {
      const delta = data.delta as Delta;
      const block = blocks[index];
      if (delta.type === 'text_delta') block.text = `${block.text as string}${delta.text}`;
      else if (delta.type === 'thinking_delta') block.thinking = `${block.thinking as string}${delta.thinking}`;
      else if (delta.type === 'signature_delta') block.signature = delta.signature;
      else if (delta.type === 'input_json_delta') json[index] += delta.partial_json;
    } else if (data.type === 'content_block_stop') {
      if (blocks[index].type === 'tool_use') blocks[index].input = JSON.parse(json[index]);
    } else if (data.type === 'message_delta') {
      const delta = data.delta as { stop_reason: unknown; stop_sequence: unknown };
      stopReason = delta.stop_reason;
      stopSequence = delta.stop_sequence;
      outputTokens = (data.usage as { output_tokens: unknown }).output_tokens;
    }
  }
  return { blocks, stopReason, stopSequence, outputTokens };
}

describe('scripted Anthropic Messages API', () => {
  let endpoint: ModelEndpoint;
  beforeEach(async () => {
    endpoint = await ModelEndpoint.start([new AnthropicApi()]);
  });
  afterEach(async () => {
    await endpoint.close();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${endpoint.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'test' }, body: JSON.stringify(body) });

  async function stream(steps: Step[], body: unknown = claudeBody()) {
    endpoint.script(steps);
    const res = await post('/v1/messages?beta=true', body);
    assert.strictEqual(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    return parseSse(await res.text());
  }

  it('streams a thought, text and a tool call as message_start, blocks and message_delta/message_stop', async () => {
    const events = await stream([{ thought: 'Look first.', text: 'I will read the notes.', tools: [{ read: { path: 'notes.txt' } }] }]);
    for (const e of events) assert.strictEqual(e.event, e.data.type, 'each event line names its data type');
    const types = events.map((e) => e.data.type);
    assert.strictEqual(types[0], 'message_start');
    assert.deepStrictEqual(types.slice(-2), ['message_delta', 'message_stop']);
    const start = events[0].data.message as { role: string; model: string; content: unknown[]; usage: { input_tokens: number } };
    assert.strictEqual(start.role, 'assistant');
    assert.strictEqual(start.model, 'claude-opus-5-5', 'the model is echoed');
    assert.deepStrictEqual(start.content, []);
    assert.ok(start.usage.input_tokens > 0);

    const { blocks, stopReason, outputTokens } = assemble(events);
    assert.deepStrictEqual(blocks.map((b) => b.type), ['thinking', 'text', 'tool_use']);
    assert.strictEqual(blocks[0].thinking, 'Look first.');
    assert.ok(typeof blocks[0].signature === 'string' && blocks[0].signature.length > 0, 'a thinking block carries a signature');
    assert.strictEqual(blocks[1].text, 'I will read the notes.');
    assert.strictEqual(blocks[2].name, 'Read');
    assert.deepStrictEqual(blocks[2].input, { file_path: '/proj/notes.txt' }, 'relative paths resolve against the Primary working directory');
    assert.match(String(blocks[2].id), /^toolu_/);
    assert.strictEqual(stopReason, 'tool_use');
    assert.ok(typeof outputTokens === 'number' && outputTokens > 0);
    assert.ok(events.filter((e) => e.data.type === 'content_block_delta' && (e.data.delta as Delta).type === 'input_json_delta').length >= 2, 'the input comes in pieces');

    const [logged] = endpoint.mainRequests();
    assert.strictEqual(logged.api, 'anthropic');
    assert.strictEqual(logged.path, '/v1/messages?beta=true');
    assert.strictEqual(endpoint.remaining, 0);
  });

  it('ends a text-only step with end_turn, in the number of chunks asked for', async () => {
    const events = await stream([{ text: 'All done: gamma is in place.', chunks: 3 }]);
    const deltas = events.filter((e) => e.data.type === 'content_block_delta');
    assert.strictEqual(deltas.length, 3);
    const { blocks, stopReason } = assemble(events);
    assert.deepStrictEqual(blocks, [{ type: 'text', text: 'All done: gamma is in place.' }]);
    assert.strictEqual(stopReason, 'end_turn');
  });

  it('answers with one JSON message when stream is false', async () => {
    endpoint.script([{ text: 'Editing.', tools: [{ edit: { path: '/abs/notes.txt', oldText: 'beta', newText: 'gamma' } }] }]);
    const res = await post('/v1/messages', claudeBody({ stream: false }));
    assert.strictEqual(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const message = (await res.json()) as { type: string; role: string; content: Array<Record<string, unknown>>; stop_reason: string; usage: { input_tokens: number; output_tokens: number } };
    assert.strictEqual(message.type, 'message');
    assert.strictEqual(message.role, 'assistant');
    assert.strictEqual(message.stop_reason, 'tool_use');
    assert.deepStrictEqual(message.content[0], { type: 'text', text: 'Editing.' });
    assert.deepStrictEqual(
      { name: message.content[1].name, input: message.content[1].input },
      { name: 'Edit', input: { file_path: '/abs/notes.txt', old_string: 'beta', new_string: 'gamma' } },
      'absolute paths are kept',
    );
    assert.ok(message.usage.input_tokens > 0 && message.usage.output_tokens > 0);
  });

  it("maps write and shell steps onto Claude Code's Write and Bash", async () => {
    const events = await stream([{ tools: [{ write: { path: 'new.txt', content: 'hello\n' } }, { shell: { command: 'ls -la' } }] }]);
    const { blocks } = assemble(events);
    assert.deepStrictEqual(
      blocks.map((b) => [b.name, b.input]),
      [
        ['Write', { file_path: '/proj/new.txt', content: 'hello\n' }],
        ['Bash', { command: 'ls -la', description: 'Run ls' }],
      ],
    );
  });

  it("maps steps onto Copilot's view/edit/create/bash, resolving paths against its Current working directory", async () => {
    const events = await stream(
      [{ tools: [{ read: { path: 'a.txt' } }, { edit: { path: 'a.txt', oldText: 'x', newText: 'y' } }, { write: { path: 'b.txt', content: 'b' } }, { shell: { command: 'echo hi' } }] }],
      copilotBody(),
    );
    assert.deepStrictEqual(
      assemble(events).blocks.map((b) => [b.name, b.input]),
      [
        ['view', { path: '/work/copilot/a.txt' }],
        ['edit', { path: '/work/copilot/a.txt', old_str: 'x', new_str: 'y' }],
        ['create', { path: '/work/copilot/b.txt', file_text: 'b' }],
        ['bash', { command: 'echo hi', description: 'Run echo' }],
      ],
    );
    assert.strictEqual(endpoint.mainRequests().length, 1, 'a request offering Copilot tools is a main request');
  });

  it('fails a step the agent has no tool for with 400 and an invalid_request_error naming the tools', async () => {
    endpoint.script([{ tools: [{ write: { path: 'x', content: '' } }] }]);
    const body = claudeBody({ tools: CLAUDE_TOOLS.filter((t) => t.name !== 'Write') });
    const res = await post('/v1/messages?beta=true', body);
    assert.strictEqual(res.status, 400);
    const error = (await res.json()) as { type: string; error: { type: string; message: string } };
    assert.strictEqual(error.type, 'error');
    assert.strictEqual(error.error.type, 'invalid_request_error');
    assert.match(error.error.message, /no offered tool for a write step \(offered: Agent, Bash, Edit, Read, ToolSearch\)/);
    assert.deepStrictEqual(endpoint.mainRequests().map((r) => r.status), [400]);
  });

  it("answers a fail step with its status and Anthropic's error body", async () => {
    endpoint.script([{ fail: { status: 529 } }, { fail: { status: 500, message: 'boom' } }]);
    const overloaded = await post('/v1/messages?beta=true', claudeBody());
    assert.strictEqual(overloaded.status, 529);
    assert.deepStrictEqual(await overloaded.json(), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const failed = await post('/v1/messages?beta=true', claudeBody());
    assert.strictEqual(failed.status, 500);
    assert.deepStrictEqual(await failed.json(), { type: 'error', error: { type: 'api_error', message: 'boom' } });
    assert.deepStrictEqual(endpoint.mainRequests().map((r) => r.status), [529, 500]);
  });

  it('never answers a hang step, not even with headers, until the endpoint closes', async () => {
    endpoint.script([{ hang: true }]);
    let settled = false;
    const pending = post('/v1/messages?beta=true', claudeBody()).then(
      () => 'answered',
      () => 'failed',
    );
    void pending.then(() => (settled = true));
    await endpoint.waitForMainRequests(1);
    // The request is logged before handle() returns; nothing else is written afterwards.
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.strictEqual(settled, false, 'no response (headers included) while the step hangs');
    await endpoint.close();
    assert.strictEqual(await pending, 'failed', 'the client sees the connection end');
    endpoint = await ModelEndpoint.start([new AnthropicApi()]);
  });

  it('gives the title request (no tools, JSON schema with title) a JSON title and takes no step', async () => {
    endpoint.script([{ text: 'main' }]);
    const body = {
      model: 'claude-haiku-5-5',
      system: [{ type: 'text', text: 'You are naming a coding session. Return JSON with a single "title" field.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: '<session>\nFix the notes\n</session>' }] }],
      tools: [],
      output_config: { effort: 'medium', format: { type: 'json_schema', schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } } },
      stream: true,
    };
    const { blocks, stopReason } = assemble(parseSse(await (await post('/v1/messages?beta=true', body)).text()));
    assert.deepStrictEqual(JSON.parse(String(blocks[0].text)), { title: SIDE_TITLE });
    assert.strictEqual(stopReason, 'end_turn');
    assert.strictEqual(endpoint.remaining, 1, 'side requests take no step');
    assert.deepStrictEqual(endpoint.requests.map((r) => r.kind), ['side']);
  });

  it('lets the auto-mode classifier allow: a low <severity>, cut at its stop sequence', async () => {
    const body = {
      model: 'claude-sonnet-5',
      max_tokens: 64,
      system: [{ type: 'text', text: 'Output <severity>N</severity> where N is an integer 0-100; below 50 means allow.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: '<transcript>\n{"Bash":"rm -rf build"}\n</transcript>\nRespond with <severity>N</severity> ONLY.' }] }],
      stop_sequences: ['</severity>'],
      thinking: { type: 'disabled' },
    };
    const stage1 = (await (await post('/v1/messages?beta=true', body)).json()) as { content: Array<{ text: string }>; stop_reason: string; stop_sequence: string };
    assert.strictEqual(stage1.stop_reason, 'stop_sequence');
    assert.strictEqual(stage1.stop_sequence, '</severity>');
    const severity = Number(/<severity>(\d+)$/.exec(stage1.content[0].text)?.[1]);
    assert.ok(severity < 50, `allows: ${stage1.content[0].text}`);
    // Stage 2 has no stop sequence and wants reasoning first.
    const stage2 = (await (await post('/v1/messages?beta=true', { ...body, stop_sequences: undefined, max_tokens: 8192 })).json()) as { content: Array<{ text: string }>; stop_reason: string };
    assert.match(stage2.content[0].text, /^<thinking>.*<\/thinking><severity>\d+<\/severity>$/);
    assert.strictEqual(stage2.stop_reason, 'end_turn');
    // Older CLIs asked for a <block> verdict.
    const old = { model: 'claude-sonnet-5', system: 'Answer <block>yes</block> or <block>no</block>.', messages: [{ role: 'user', content: 'rm -rf build' }] };
    assert.strictEqual(((await (await post('/v1/messages', old)).json()) as { content: Array<{ text: string }> }).content[0].text, '<block>no</block>');
    assert.deepStrictEqual(endpoint.requests.map((r) => r.kind), ['side', 'side', 'side']);
  });

  it("treats Claude Code's post-turn prompt suggestion as a side request although it offers all the tools", async () => {
    endpoint.script([{ text: 'next turn' }]);
    const body = claudeBody({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Fix the notes' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'All done.' }] },
        { role: 'user', content: '[SUGGESTION MODE: Suggest what the user might naturally type next into Claude Code.]\n\nReply with ONLY the suggestion.' },
      ],
    });
    const { blocks, stopReason } = assemble(parseSse(await (await post('/v1/messages?beta=true', body)).text()));
    assert.deepStrictEqual(blocks, [{ type: 'text', text: SIDE_SUGGESTION }]);
    assert.strictEqual(stopReason, 'end_turn');
    assert.strictEqual(endpoint.remaining, 1, 'the next turn keeps its step');
    assert.deepStrictEqual(endpoint.requests.map((r) => r.kind), ['side']);
  });

  it('counts tokens as a side request', async () => {
    const res = await post('/v1/messages/count_tokens?beta=true', claudeBody());
    assert.strictEqual(res.status, 200);
    const count = (await res.json()) as { input_tokens: number };
    assert.ok(count.input_tokens > 0);
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.path, r.kind]), [['/v1/messages/count_tokens?beta=true', 'side']]);
  });

  it('says "Done." once the script is used up, and leaves other paths to the endpoint (404)', async () => {
    const { blocks } = assemble(await stream([]));
    assert.deepStrictEqual(blocks, [{ type: 'text', text: 'Done.' }]);
    const other = await fetch(`${endpoint.url}/v1/models`);
    assert.strictEqual(other.status, 404);
    assert.deepStrictEqual(endpoint.requests.map((r) => r.api), ['anthropic', 'unknown']);
  });
});
