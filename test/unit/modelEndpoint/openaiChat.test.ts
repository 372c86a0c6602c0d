// The scripted OpenAI Chat Completions API over real HTTP: requests shaped as Qwen Code 0.24.4 and
// OpenCode 1.18.33 send them (measured), and the chunks their OpenAI clients read back.
import * as assert from 'assert';
import { ModelEndpoint } from '../../fixtures/modelEndpoint/endpoint';
import { openaiChat, sampleOf, SCRIPTED_CHAT_MODEL } from '../../fixtures/modelEndpoint/openaiChat';

const fn = (name: string, props: string[], required = props) => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])), required } },
});
/** Qwen Code 0.24.4's own tools (the ones the mapping looks at, plus some it must ignore). */
const QWEN_TOOLS = [
  fn('agent', ['prompt']),
  fn('edit', ['file_path', 'old_string', 'new_string', 'replace_all'], ['file_path', 'old_string', 'new_string']),
  fn('glob', ['pattern']),
  fn('read_file', ['file_path', 'offset', 'limit', 'pages'], ['file_path']),
  fn('run_shell_command', ['command', 'is_background', 'timeout', 'description', 'directory'], ['command']),
  fn('write_file', ['file_path', 'content', 'record_as_artifact'], ['file_path', 'content']),
];
/** OpenCode 1.18.33's (bash has no `description` there). */
const OPENCODE_TOOLS = [
  fn('bash', ['command', 'timeout', 'workdir'], ['command']),
  fn('edit', ['filePath', 'oldString', 'newString', 'replaceAll'], ['filePath', 'oldString', 'newString']),
  fn('glob', ['pattern']),
  fn('read', ['filePath', 'offset', 'limit'], ['filePath']),
  fn('write', ['content', 'filePath']),
  fn('todowrite', ['todos']),
];

function chatBody(tools: unknown[], extra: Record<string, unknown> = {}) {
  return {
    model: SCRIPTED_CHAT_MODEL,
    messages: [
      { role: 'system', content: 'You are Qwen Code, a CLI agent.' },
      { role: 'user', content: [{ type: 'text', text: 'Fix the notes' }] },
    ],
    tools,
    stream: true,
    stream_options: { include_usage: true },
    ...extra,
  };
}

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: Array<{ index: number; delta: Delta; finish_reason: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
interface Delta {
  role?: string;
  content?: string;
  reasoning_content?: string;
  tool_calls?: Array<{ index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }>;
}

describe('scripted OpenAI Chat Completions API', () => {
  let endpoint: ModelEndpoint;
  beforeEach(async () => {
    endpoint = await ModelEndpoint.start([openaiChat]);
  });
  afterEach(async () => {
    await endpoint.close();
  });

  const post = (body: unknown, signal?: AbortSignal) =>
    fetch(`${endpoint.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: JSON.stringify(body), signal });
  /** The SSE data lines; asserts the stream ends with [DONE] and returns the JSON chunks before it. */
  const stream = async (body: unknown): Promise<Chunk[]> => {
    const res = await post(body);
    assert.strictEqual(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const data = (await res.text())
      .split('\n\n')
      .filter((e) => e.trim())
      .map((e) => /^data: (.*)$/m.exec(e)?.[1] ?? '');
    assert.strictEqual(data[data.length - 1], '[DONE]');
    return data.slice(0, -1).map((d) => JSON.parse(d) as Chunk);
  };
  const deltas = (chunks: Chunk[]) => chunks.flatMap((c) => c.choices.map((choice) => choice.delta));
  const finishReason = (chunks: Chunk[]) => chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter((f) => f !== null);
  /** Reassembles streamed tool calls the way an OpenAI client does: by index, arguments concatenated. */
  const toolCalls = (chunks: Chunk[]) => {
    const calls: Array<{ id: string; name: string; arguments: string }> = [];
    for (const delta of deltas(chunks)) {
      for (const piece of delta.tool_calls ?? []) {
        calls[piece.index] ??= { id: '', name: '', arguments: '' };
        if (piece.id) calls[piece.index].id = piece.id;
        if (piece.function?.name) calls[piece.index].name = piece.function.name;
        calls[piece.index].arguments += piece.function?.arguments ?? '';
      }
    }
    return calls.map((c) => ({ ...c, args: JSON.parse(c.arguments) as Record<string, unknown> }));
  };

  it('streams text as content deltas, finish_reason stop, a usage chunk, then [DONE]', async () => {
    endpoint.script([{ text: 'Hello from the scripted chat endpoint.', chunks: 3 }]);
    const chunks = await stream(chatBody(QWEN_TOOLS));
    assert.strictEqual(deltas(chunks)[0].role, 'assistant');
    assert.strictEqual(deltas(chunks).map((d) => d.content ?? '').join(''), 'Hello from the scripted chat endpoint.');
    assert.ok(deltas(chunks).filter((d) => d.content).length >= 3, 'the text comes in pieces');
    assert.deepStrictEqual(finishReason(chunks), ['stop']);
    const last = chunks[chunks.length - 1];
    assert.deepStrictEqual(last.choices, [], 'the usage chunk has no choices');
    assert.ok(last.usage && last.usage.prompt_tokens > 0 && last.usage.total_tokens === last.usage.prompt_tokens + last.usage.completion_tokens);
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === SCRIPTED_CHAT_MODEL && c.id === chunks[0].id));
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.kind, r.api, r.path]), [['main', 'openai-chat', '/v1/chat/completions']]);
    assert.strictEqual(endpoint.remaining, 0);
  });

  it('sends no usage chunk when stream_options.include_usage is not set', async () => {
    endpoint.script([{ text: 'Hi.' }]);
    const chunks = await stream(chatBody(QWEN_TOOLS, { stream_options: undefined }));
    assert.ok(chunks.every((c) => c.usage === undefined && c.choices.length === 1));
  });

  it("maps read, edit, write and shell steps to Qwen Code's own tools and argument names", async () => {
    endpoint.script([{ text: 'Working.', tools: [{ read: { path: '/p/a.txt' } }, { edit: { path: '/p/a.txt', oldText: 'two', newText: '2' } }, { write: { path: '/p/new.txt', content: 'new\n' } }, { shell: { command: 'echo hi && ls' } }] }]);
    const chunks = await stream(chatBody(QWEN_TOOLS));
    const calls = toolCalls(chunks);
    assert.deepStrictEqual(calls.map((c) => [c.name, c.args]), [
      ['read_file', { file_path: '/p/a.txt' }],
      ['edit', { file_path: '/p/a.txt', old_string: 'two', new_string: '2' }],
      ['write_file', { file_path: '/p/new.txt', content: 'new\n' }],
      ['run_shell_command', { command: 'echo hi && ls', description: 'Runs echo hi && ls' }],
    ]);
    assert.strictEqual(new Set(calls.map((c) => c.id)).size, 4, 'each call has its own id');
    assert.deepStrictEqual(finishReason(chunks), ['tool_calls']);
    // The first delta of a call names it with empty arguments; the arguments follow in several pieces.
    const first = deltas(chunks).find((d) => d.tool_calls)?.tool_calls?.[0];
    assert.deepStrictEqual(first, { index: 0, id: calls[0].id, type: 'function', function: { name: 'read_file', arguments: '' } });
    assert.ok(deltas(chunks).filter((d) => d.tool_calls?.[0].index === 1).length >= 3);
    // Text first, then the tool calls, as the real API streams them.
    const kinds = deltas(chunks).map((d) => (d.content ? 'text' : d.tool_calls ? 'tool' : 'other'));
    assert.ok(kinds.lastIndexOf('text') < kinds.indexOf('tool'));
  });

  it("maps the same steps to OpenCode's tools (camelCase arguments, no description its bash lacks)", async () => {
    endpoint.script([{ tools: [{ read: { path: '/p/a.txt' } }, { edit: { path: '/p/a.txt', oldText: 'two', newText: '2' } }, { write: { path: '/p/new.txt', content: 'new\n' } }, { shell: { command: 'ls' } }] }]);
    const calls = toolCalls(await stream(chatBody(OPENCODE_TOOLS)));
    assert.deepStrictEqual(calls.map((c) => [c.name, c.args]), [
      ['read', { filePath: '/p/a.txt' }],
      ['edit', { filePath: '/p/a.txt', oldString: 'two', newString: '2' }],
      ['write', { filePath: '/p/new.txt', content: 'new\n' }],
      ['bash', { command: 'ls' }],
    ]);
  });

  it('streams a thought as reasoning_content before the text', async () => {
    endpoint.script([{ thought: 'Thinking it over.', text: 'Answer.' }]);
    const d = deltas(await stream(chatBody(QWEN_TOOLS)));
    assert.strictEqual(d.map((x) => x.reasoning_content ?? '').join(''), 'Thinking it over.');
    assert.ok(d.findIndex((x) => x.reasoning_content) < d.findIndex((x) => x.content));
  });

  it('answers plain JSON when stream is false', async () => {
    endpoint.script([{ text: 'Reading.', tools: [{ read: { path: '/p/a.txt' } }] }]);
    const res = await post(chatBody(OPENCODE_TOOLS, { stream: false, stream_options: undefined }));
    assert.strictEqual(res.status, 200);
    const json = (await res.json()) as { object: string; choices: Array<{ message: { role: string; content: string; tool_calls: Array<{ type: string; function: { name: string; arguments: string } }> }; finish_reason: string }>; usage: { total_tokens: number } };
    assert.strictEqual(json.object, 'chat.completion');
    const [choice] = json.choices;
    assert.strictEqual(choice.message.role, 'assistant');
    assert.strictEqual(choice.message.content, 'Reading.');
    assert.deepStrictEqual(choice.message.tool_calls.map((c) => [c.type, c.function.name, JSON.parse(c.function.arguments)]), [['function', 'read', { filePath: '/p/a.txt' }]]);
    assert.strictEqual(choice.finish_reason, 'tool_calls');
    assert.ok(json.usage.total_tokens > 0);
  });

  it('answers side requests without taking a step: no tools, a title, JSON formats, a forced function', async () => {
    endpoint.script([{ text: 'the main answer' }]);
    const text = async (body: unknown) => deltas(await stream(body)).map((d) => d.content ?? '').join('');
    assert.strictEqual(await text(chatBody([])), 'OK.');
    const title = { model: 'm', stream: true, messages: [{ role: 'system', content: 'You are a title generator. You output ONLY a thread title.' }, { role: 'user', content: 'Say hello' }] };
    assert.strictEqual(await text(title), 'Scripted session');
    const schema = { type: 'object', properties: { next_speaker: { type: 'string', enum: ['user', 'model'] }, reasoning: { type: 'string' } }, required: ['next_speaker', 'reasoning'] };
    const json = await text(chatBody([], { response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } }));
    assert.deepStrictEqual(JSON.parse(json), { next_speaker: 'user', reasoning: 'OK' });
    assert.deepStrictEqual(JSON.parse(await text(chatBody([], { response_format: { type: 'json_object' } }))), {});
    const forced = chatBody([fn('respond', ['answer'])], { tool_choice: { type: 'function', function: { name: 'respond' } } });
    assert.deepStrictEqual(toolCalls(await stream(forced)).map((c) => [c.name, c.args]), [['respond', { answer: 'OK' }]]);
    assert.strictEqual(await text(chatBody(QWEN_TOOLS, { tool_choice: 'none' })), 'OK.');
    // Qwen's background memory subagent offers tools but is not the user's turn.
    const memory = chatBody(QWEN_TOOLS, { messages: [{ role: 'system', content: 'You are now acting as the managed memory extraction subagent for an AI coding assistant.' }, { role: 'user', content: 'go' }] });
    assert.strictEqual(await text(memory), 'OK.');
    assert.strictEqual(endpoint.remaining, 1, 'no side request took the step');
    assert.deepStrictEqual(endpoint.requests.map((r) => r.kind), ['side', 'side', 'side', 'side', 'side', 'side', 'side']);
    assert.strictEqual(await text(chatBody(QWEN_TOOLS)), 'the main answer');
  });

  it('sampleOf fills required properties, enums, arrays and nullable types', () => {
    const schema = { type: 'object', properties: { a: { type: ['null', 'integer'] }, b: { type: 'array' }, c: { type: 'boolean' }, d: { anyOf: [{ const: 'x' }] }, e: { type: 'string' } }, required: ['a', 'b', 'c', 'd'] };
    assert.deepStrictEqual(sampleOf(schema), { a: 0, b: [], c: false, d: 'x' });
  });

  it("answers a fail step with the status and OpenAI's error body", async () => {
    endpoint.script([{ fail: { status: 429, message: 'slow down' } }, { fail: { status: 500 } }, { fail: { status: 401 } }]);
    const errors: Array<[number, unknown]> = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(chatBody(QWEN_TOOLS));
      errors.push([res.status, await res.json()]);
    }
    assert.deepStrictEqual(errors, [
      [429, { error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' } }],
      [500, { error: { message: 'scripted failure (HTTP 500)', type: 'server_error', param: null, code: null } }],
      [401, { error: { message: 'scripted failure (HTTP 401)', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }],
    ]);
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.kind, r.status]), [['main', 429], ['main', 500], ['main', 401]]);
  });

  it('never answers a hang step (not even headers) until the client goes away', async () => {
    endpoint.script([{ hang: true }, { text: 'after' }]);
    const abort = new AbortController();
    const pending = post(chatBody(QWEN_TOOLS), abort.signal);
    await endpoint.waitForMainRequests(1);
    const raced = await Promise.race([pending.then(() => 'answered'), new Promise((resolve) => setTimeout(resolve, 300, 'pending'))]);
    assert.strictEqual(raced, 'pending');
    abort.abort();
    await assert.rejects(pending);
    assert.strictEqual(deltas(await stream(chatBody(QWEN_TOOLS))).map((d) => d.content ?? '').join(''), 'after');
  });

  it('answers 500 naming the tools when the agent offers none that fits a step', async () => {
    endpoint.script([{ tools: [{ write: { path: '/p/x', content: 'x' } }] }]);
    const res = await post(chatBody([fn('glob', ['pattern'])]));
    assert.strictEqual(res.status, 500);
    const body = (await res.json()) as { error: { message: string } };
    assert.match(body.error.message, /no write tool \(offered: glob\)/);
    assert.strictEqual(endpoint.requests[0].status, 500);
  });

  it('answers "Done." when the script is used up, and lists the scripted model at GET /v1/models', async () => {
    assert.strictEqual(deltas(await stream(chatBody(QWEN_TOOLS))).map((d) => d.content ?? '').join(''), 'Done.');
    const models = (await (await fetch(`${endpoint.url}/v1/models`)).json()) as { object: string; data: Array<{ id: string }> };
    assert.deepStrictEqual([models.object, models.data.map((m) => m.id)], ['list', [SCRIPTED_CHAT_MODEL]]);
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.method, r.kind]), [['POST', 'main'], ['GET', 'side']]);
  });
});
