// The scripted OpenAI Responses API over real HTTP: requests shaped as Codex (codex-acp 0.16.0, codex
// 0.137) sends them (measured), and the SSE events it reads back.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ModelEndpoint } from '../../fixtures/modelEndpoint/endpoint';
import { addFilePatch, editPatch, openaiResponses, type OutputItem } from '../../fixtures/modelEndpoint/openaiResponses';

const fn = (name: string, props: string[]) => ({ type: 'function', name, strict: false, parameters: { type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])) } });
/** Codex's own tools for gpt-5.3-codex (the ones the mapping looks at, plus a few it must ignore). */
const CODEX_TOOLS = [
  fn('exec_command', ['cmd', 'workdir', 'tty', 'yield_time_ms']),
  fn('write_stdin', ['session_id', 'chars']),
  fn('update_plan', ['plan']),
  { type: 'custom', name: 'apply_patch', description: 'FREEFORM', format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' } },
  { type: 'tool_search', execution: 'client' },
];

function codexBody(cwd: string, tools: unknown[] = CODEX_TOOLS) {
  return {
    model: 'gpt-5.3-codex',
    instructions: 'You are Codex',
    input: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>` }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Do it' }] },
    ],
    tools,
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { effort: 'medium' },
    store: false,
    stream: true,
    include: ['reasoning.encrypted_content'],
  };
}

interface SseEvent {
  readonly event: string;
  readonly data: { type: string; sequence_number: number; [key: string]: unknown };
}

describe('scripted OpenAI Responses API', () => {
  let endpoint: ModelEndpoint;
  let project: string;
  beforeEach(async () => {
    endpoint = await ModelEndpoint.start([openaiResponses]);
    project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-responses-')));
  });
  afterEach(async () => {
    await endpoint.close();
    fs.rmSync(project, { recursive: true, force: true });
  });

  const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(`${endpoint.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers }, body: JSON.stringify(body), signal });
  const stream = async (body: unknown, headers?: Record<string, string>): Promise<SseEvent[]> => {
    const res = await post(body, headers);
    assert.strictEqual(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const text = await res.text();
    return text
      .split('\n\n')
      .filter((e) => e.trim())
      .map((e) => {
        const event = /^event: (.+)$/m.exec(e)?.[1] ?? '';
        const data = JSON.parse(/^data: (.+)$/m.exec(e)?.[1] ?? 'null') as SseEvent['data'];
        return { event, data };
      });
  };
  const completed = (events: SseEvent[]) => {
    const last = events[events.length - 1];
    assert.strictEqual(last.event, 'response.completed');
    return last.data.response as { status: string; output: OutputItem[]; usage: { input_tokens: number; output_tokens: number; total_tokens: number } };
  };
  const toolCalls = (events: SseEvent[]) => completed(events).output.filter((i) => i.type === 'function_call' || i.type === 'custom_tool_call');

  it('streams text as output_text deltas inside one message item, then response.completed with usage', async () => {
    endpoint.script([{ text: 'Hello from the scripted Responses endpoint.', chunks: 3 }]);
    const events = await stream(codexBody(project));
    assert.deepStrictEqual(events.map((e) => e.event), [
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.output_item.done',
      'response.completed',
    ]);
    assert.ok(events.every((e, i) => e.data.type === e.event && e.data.sequence_number === i), 'every data.type names its event and sequence numbers count up');
    const deltas = events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.data.delta);
    assert.strictEqual(deltas.join(''), 'Hello from the scripted Responses endpoint.');
    const response = completed(events);
    assert.strictEqual(response.status, 'completed');
    assert.deepStrictEqual(response.output.map((i) => i.type), ['message']);
    assert.ok(response.usage.input_tokens > 0 && response.usage.total_tokens === response.usage.input_tokens + response.usage.output_tokens);
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.api, r.kind, r.path]), [['openai-responses', 'main', '/v1/responses']]);
    assert.strictEqual(endpoint.remaining, 0);
  });

  it('streams a thought as a reasoning summary before the text', async () => {
    endpoint.script([{ thought: 'Weighing it up.', text: 'Answer.' }]);
    const events = await stream(codexBody(project));
    const summary = events.filter((e) => e.event === 'response.reasoning_summary_text.delta').map((e) => e.data.delta).join('');
    assert.strictEqual(summary, 'Weighing it up.');
    assert.deepStrictEqual(completed(events).output.map((i) => i.type), ['reasoning', 'message']);
  });

  it("maps ToolSteps onto Codex's own exec_command and freeform apply_patch", async () => {
    fs.writeFileSync(path.join(project, 'notes.txt'), 'alpha\nbeta gamma\ndelta\n');
    endpoint.script([
      {
        text: 'On it.',
        tools: [
          { shell: { command: 'npm test' } },
          { read: { path: 'src/my file.ts' } },
          { edit: { path: 'notes.txt', oldText: 'gamma', newText: 'GAMMA' } },
          { write: { path: path.join(project, 'new.txt'), content: 'one\ntwo\n' } },
        ],
      },
    ]);
    const events = await stream(codexBody(project));
    const calls = toolCalls(events);
    assert.deepStrictEqual(
      calls.map((c) => (c.type === 'function_call' ? [c.name, JSON.parse(c.arguments)] : [c.type, c.name, c.input])),
      [
        ['exec_command', { cmd: 'npm test' }],
        ['exec_command', { cmd: "cat 'src/my file.ts'" }],
        // Widened to the whole line (apply_patch matches lines); the relative path is left to the agent.
        ['custom_tool_call', 'apply_patch', '*** Begin Patch\n*** Update File: notes.txt\n@@\n-beta gamma\n+beta GAMMA\n*** End Patch\n'],
        ['custom_tool_call', 'apply_patch', `*** Begin Patch\n*** Add File: ${path.join(project, 'new.txt')}\n+one\n+two\n*** End Patch\n`],
      ],
    );
    assert.ok(calls.every((c) => /^call_/.test(c.call_id) && c.status === 'completed'));
    assert.strictEqual(new Set(calls.map((c) => c.call_id)).size, 4, 'distinct call ids');
    // Each call is announced empty, streamed as one delta, then done in full.
    const added = events.filter((e) => e.event === 'response.output_item.added').map((e) => e.data.item as OutputItem);
    assert.deepStrictEqual(added.map((i) => (i.type === 'function_call' ? i.arguments : i.type === 'custom_tool_call' ? i.input : i.type)), ['message', '', '', '', '']);
    assert.strictEqual(events.filter((e) => e.event === 'response.function_call_arguments.delta').length, 2);
    assert.strictEqual(events.filter((e) => e.event === 'response.custom_tool_call_input.delta').length, 2);
  });

  it('uses the shell and patch shapes other Codex models offer, and read_file when it exists', async () => {
    endpoint.script([
      { tools: [{ shell: { command: 'ls' } }, { edit: { path: '/abs/x.ts', oldText: 'a\nb', newText: 'c' } }] },
      { tools: [{ shell: { command: 'ls' } }, { read: { path: '/abs/x.ts' } }] },
    ]);
    const first = toolCalls(await stream(codexBody(project, [fn('shell', ['command', 'workdir']), fn('apply_patch', ['input'])])));
    assert.deepStrictEqual(first.map((c) => (c.type === 'function_call' ? [c.name, JSON.parse(c.arguments)] : c.type)), [
      ['shell', { command: ['bash', '-lc', 'ls'] }],
      // The file does not exist, so oldText is taken as whole lines.
      ['apply_patch', { input: '*** Begin Patch\n*** Update File: /abs/x.ts\n@@\n-a\n-b\n+c\n*** End Patch\n' }],
    ]);
    const second = toolCalls(await stream(codexBody(project, [fn('shell_command', ['command', 'workdir']), fn('read_file', ['file_path', 'offset', 'limit'])])));
    assert.deepStrictEqual(second.map((c) => (c.type === 'function_call' ? [c.name, JSON.parse(c.arguments)] : c.type)), [
      ['shell_command', { command: 'ls' }],
      ['read_file', { file_path: '/abs/x.ts' }],
    ]);
  });

  it('fails the request (logged, 500) when the agent offers no tool for a step', async () => {
    endpoint.script([{ tools: [{ write: { path: '/abs/x.ts', content: 'x' } }] }]);
    const res = await post(codexBody(project, [fn('exec_command', ['cmd'])]));
    assert.strictEqual(res.status, 500);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /no apply_patch tool \(offered: exec_command\)/);
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.kind, r.status]), [['main', 500]]);
  });

  it('answers side requests (no tools, or a Codex request_kind other than turn) without taking a step', async () => {
    endpoint.script([{ text: 'the main answer' }]);
    const noTools = await stream({ ...codexBody(project), tools: [] });
    const compact = await stream(codexBody(project), { 'x-codex-turn-metadata': JSON.stringify({ request_kind: 'compact' }) });
    for (const events of [noTools, compact]) {
      assert.strictEqual(events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.data.delta).join(''), 'OK.');
    }
    assert.strictEqual(endpoint.remaining, 1);
    const turn = await stream(codexBody(project), { 'x-codex-turn-metadata': JSON.stringify({ request_kind: 'turn' }) });
    assert.strictEqual(turn.filter((e) => e.event === 'response.output_text.delta').map((e) => e.data.delta).join(''), 'the main answer');
    assert.deepStrictEqual(endpoint.requests.map((r) => r.kind), ['side', 'side', 'main']);
  });

  it('answers "Done." once the script is used up', async () => {
    const events = await stream(codexBody(project));
    assert.strictEqual(events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.data.delta).join(''), 'Done.');
  });

  it("fails with the status and OpenAI's error body", async () => {
    endpoint.script([{ fail: { status: 500, message: 'scripted outage' } }, { fail: { status: 429 } }, { fail: { status: 401 } }]);
    const bodies: unknown[] = [];
    for (const status of [500, 429, 401]) {
      const res = await post(codexBody(project));
      assert.strictEqual(res.status, status);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      bodies.push(await res.json());
    }
    assert.deepStrictEqual(bodies, [
      { error: { message: 'scripted outage', type: 'server_error', param: null, code: null } },
      { error: { message: 'scripted failure (HTTP 429)', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
      { error: { message: 'scripted failure (HTTP 401)', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
    ]);
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.kind, r.status]), [['main', 500], ['main', 429], ['main', 401]]);
  });

  it('hang: sends not even headers until the endpoint closes', async () => {
    endpoint.script([{ hang: true }]);
    let answered = false;
    const pending = post(codexBody(project)).then((res) => {
      answered = true;
      return res;
    });
    await endpoint.waitForMainRequests(1);
    assert.strictEqual(answered, false);
    await endpoint.close();
    // fetch resolves as soon as headers arrive, so a rejection proves none were sent.
    await assert.rejects(pending);
    endpoint = await ModelEndpoint.start([openaiResponses]);
  });

  it('claims only POST …/responses (GET /models and chat completions belong to other modules)', () => {
    const url = (p: string) => new URL(p, 'http://127.0.0.1');
    assert.strictEqual(openaiResponses.matches('POST', url('/v1/responses')), true);
    assert.strictEqual(openaiResponses.matches('POST', url('/responses')), true);
    assert.strictEqual(openaiResponses.matches('GET', url('/v1/models')), false);
    assert.strictEqual(openaiResponses.matches('POST', url('/v1/chat/completions')), false);
  });

  it('builds apply_patch patches: whole-line edits (multi-line too) and new files', () => {
    const file = path.join(project, 'a.txt');
    fs.writeFileSync(file, 'one\ntwo three\nfour\nfive');
    assert.strictEqual(editPatch({ path: file, oldText: 'three\nfour\nfi', newText: '3\n4\n5' }), `*** Begin Patch\n*** Update File: ${file}\n@@\n-two three\n-four\n-five\n+two 3\n+4\n+5ve\n*** End Patch\n`);
    assert.strictEqual(editPatch({ path: 'a.txt', oldText: 'four\n', newText: 'FOUR\n' }, project), '*** Begin Patch\n*** Update File: a.txt\n@@\n-four\n+FOUR\n*** End Patch\n');
    assert.strictEqual(addFilePatch('b.txt', 'no newline'), '*** Begin Patch\n*** Add File: b.txt\n+no newline\n*** End Patch\n');
  });
});
