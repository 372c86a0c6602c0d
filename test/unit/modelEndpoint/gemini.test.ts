// The scripted Gemini API over real HTTP: the shapes Gemini CLI 0.61 sends (measured from its requests)
// and the GenerateContentResponse chunks it reads back.
import * as assert from 'assert';
import { ModelEndpoint } from '../../fixtures/modelEndpoint/endpoint';
import { GeminiApi, answerForSchema } from '../../fixtures/modelEndpoint/gemini';

const PROJECT = '/work/project';

/** A main request as Gemini CLI sends it: the session context first, its tools declared with parametersJsonSchema. */
function mainBody(extraTools: Array<{ name: string; props: string[] }> = []) {
  const decl = (name: string, props: string[]) => ({ name, description: name, parametersJsonSchema: { type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])) } });
  return {
    contents: [{ role: 'user', parts: [{ text: `<session_context>\n- **Workspace Directories:**\n  - ${PROJECT}\n</session_context>` }, { text: 'Do it' }] }],
    systemInstruction: { parts: [{ text: 'You are Gemini CLI' }] },
    tools: [
      {
        functionDeclarations: [
          decl('read_file', ['file_path', 'start_line', 'end_line']),
          decl('replace', ['file_path', 'instruction', 'old_string', 'new_string', 'allow_multiple']),
          decl('write_file', ['file_path', 'content']),
          decl('run_shell_command', ['command', 'description', 'dir_path', 'is_background']),
          ...extraTools.map((t) => decl(t.name, t.props)),
        ],
      },
    ],
    generationConfig: { temperature: 1, thinkingConfig: { includeThoughts: true } },
  };
}

interface Chunk {
  candidates: Array<{ content: { role: string; parts: Array<Record<string, unknown>> }; finishReason?: string }>;
  usageMetadata?: { promptTokenCount: number; candidatesTokenCount: number; totalTokenCount: number; thoughtsTokenCount?: number };
  modelVersion?: string;
}

describe('scripted Gemini API', () => {
  let endpoint: ModelEndpoint;
  beforeEach(async () => {
    endpoint = await ModelEndpoint.start([new GeminiApi()]);
  });
  afterEach(async () => {
    await endpoint.close();
  });

  const post = (path: string, body: unknown, signal?: AbortSignal) =>
    fetch(`${endpoint.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'fake' }, body: JSON.stringify(body), signal });
  const stream = async (body: unknown, model = 'gemini-3.1-pro-preview'): Promise<Chunk[]> => {
    const res = await post(`/v1beta/models/${model}:streamGenerateContent?alt=sse`, body);
    assert.strictEqual(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const text = await res.text();
    return text.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => JSON.parse(e.slice('data: '.length)) as Chunk);
  };
  const partsOf = (chunks: Chunk[]) => chunks.flatMap((c) => c.candidates[0].content.parts);

  it('streams text in chunks; only the last carries finishReason STOP and usageMetadata', async () => {
    endpoint.script([{ text: 'Hello there from the scripted Gemini endpoint.', chunks: 3 }]);
    const chunks = await stream(mainBody());
    assert.strictEqual(chunks.length, 3);
    assert.strictEqual(partsOf(chunks).map((p) => p.text).join(''), 'Hello there from the scripted Gemini endpoint.');
    assert.deepStrictEqual(chunks.map((c) => c.candidates[0].finishReason), [undefined, undefined, 'STOP']);
    const usage = chunks[2].usageMetadata;
    assert.ok(usage && usage.promptTokenCount > 0 && usage.totalTokenCount === usage.promptTokenCount + usage.candidatesTokenCount);
    assert.ok(chunks.every((c) => c.modelVersion === 'gemini-3.1-pro-preview' && c.candidates[0].content.role === 'model'));
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.api, r.kind]), [['gemini', 'main']]);
    assert.strictEqual(endpoint.remaining, 0);
  });

  it("maps ToolSteps onto Gemini CLI's own functions, relative paths against the session's workspace", async () => {
    endpoint.script([
      {
        thought: '**Planning**\nRead, edit, write, run.',
        text: 'On it.',
        tools: [
          { read: { path: 'notes.txt' } },
          { edit: { path: '/elsewhere/a.ts', oldText: 'old', newText: 'new' } },
          { write: { path: 'src/new.ts', content: 'x\n' } },
          { shell: { command: 'ls -la' } },
        ],
      },
    ]);
    const parts = partsOf(await stream(mainBody()));
    assert.deepStrictEqual(parts[0], { text: '**Planning**\nRead, edit, write, run.', thought: true }, 'the thought first, whole');
    assert.deepStrictEqual(parts[1], { text: 'On it.' });
    assert.deepStrictEqual(parts.slice(2), [
      { functionCall: { name: 'read_file', args: { file_path: `${PROJECT}/notes.txt` } } },
      { functionCall: { name: 'replace', args: { file_path: '/elsewhere/a.ts', old_string: 'old', new_string: 'new', instruction: 'Replace the scripted text.' } } },
      { functionCall: { name: 'write_file', args: { file_path: `${PROJECT}/src/new.ts`, content: 'x\n' } } },
      { functionCall: { name: 'run_shell_command', args: { command: 'ls -la', description: 'Runs ls.' } } },
    ]);
  });

  it('fills the path property the declaration has (absolute_path in early versions)', async () => {
    endpoint.script([{ tools: [{ read: { path: '/a/b.txt' } }] }]);
    const body = mainBody();
    body.tools[0].functionDeclarations[0] = { name: 'read_file', description: '', parametersJsonSchema: { type: 'object', properties: { absolute_path: { type: 'string' } } } };
    assert.deepStrictEqual(partsOf(await stream(body)), [{ functionCall: { name: 'read_file', args: { absolute_path: '/a/b.txt' } } }]);
  });

  it('answers a step whose tool the agent did not offer with 400 INVALID_ARGUMENT (not retried), logged as main', async () => {
    endpoint.script([{ tools: [{ shell: { command: 'ls' } }] }]);
    const body = { ...mainBody(), tools: [{ functionDeclarations: [{ name: 'read_file', parametersJsonSchema: { type: 'object', properties: { file_path: {} } } }] }] };
    const res = await post('/v1beta/models/m:streamGenerateContent?alt=sse', body);
    assert.strictEqual(res.status, 400);
    const error = ((await res.json()) as { error: { code: number; status: string; message: string } }).error;
    assert.strictEqual(error.status, 'INVALID_ARGUMENT');
    assert.match(error.message, /did not offer run_shell_command/);
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.kind, r.status]), [['main', 400]]);
  });

  it('answers :generateContent with one JSON response', async () => {
    endpoint.script([{ text: 'Whole answer.' }]);
    const res = await post('/v1beta/models/gemini-2.5-pro:generateContent', mainBody());
    const body = (await res.json()) as Chunk;
    assert.deepStrictEqual(body.candidates[0].content.parts, [{ text: 'Whole answer.' }]);
    assert.strictEqual(body.candidates[0].finishReason, 'STOP');
  });

  it("answers the router's classifier and the next-speaker check with JSON that fits their schema, taking no step", async () => {
    endpoint.script([{ text: 'for the main request' }]);
    const classifier = {
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'OBJECT', properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } }, required: ['complexity_reasoning', 'complexity_score'] },
      },
    };
    const res = await post('/v1beta/models/gemini-3.5-flash-lite:generateContent', classifier);
    const answer = JSON.parse(String(((await res.json()) as Chunk).candidates[0].content.parts[0].text)) as unknown;
    assert.deepStrictEqual(answer, { complexity_reasoning: 'Scripted.', complexity_score: 10 });
    const nextSpeaker = { ...classifier, tools: mainBody().tools, generationConfig: { responseJsonSchema: { type: 'object', properties: { reasoning: { type: 'string' }, next_speaker: { type: 'string', enum: ['model', 'user'] } } } } };
    const chunks = await stream(nextSpeaker, 'gemini-3.5-flash');
    assert.deepStrictEqual(JSON.parse(String(partsOf(chunks)[0].text)), { reasoning: 'Scripted.', next_speaker: 'user' });
    assert.deepStrictEqual(endpoint.requests.map((r) => r.kind), ['side', 'side']);
    assert.strictEqual(endpoint.remaining, 1);
  });

  it('fits other schemas: enums, numbers, booleans, arrays, nested objects', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', enum: ['x', 'y'] }, b: { type: 'number', minimum: 2 }, c: { type: 'boolean' }, d: { type: 'array' }, e: { properties: { f: { type: 'STRING' } } } } };
    assert.deepStrictEqual(answerForSchema(schema), { a: 'x', b: 2, c: false, d: [], e: { f: 'Scripted.' } });
  });

  it('answers :countTokens with an estimate, as a side request', async () => {
    const res = await post('/v1beta/models/gemini-2.5-pro:countTokens', { contents: mainBody().contents });
    const body = (await res.json()) as { totalTokens: number };
    assert.ok(body.totalTokens > 0);
    assert.deepStrictEqual(endpoint.requests.map((r) => [r.kind, r.path]), [['side', '/v1beta/models/gemini-2.5-pro:countTokens']]);
  });

  it("answers a failing step with its status and Google's error body", async () => {
    endpoint.script([{ fail: { status: 429, message: 'Quota exceeded' } }, { fail: { status: 503 } }]);
    const first = await post('/v1beta/models/m:streamGenerateContent?alt=sse', mainBody());
    assert.strictEqual(first.status, 429);
    assert.deepStrictEqual(await first.json(), { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } });
    const second = await post('/v1beta/models/m:streamGenerateContent?alt=sse', mainBody());
    assert.deepStrictEqual(await second.json(), { error: { code: 503, message: 'Scripted failure (503 UNAVAILABLE)', status: 'UNAVAILABLE' } });
    assert.deepStrictEqual(endpoint.mainRequests().map((r) => r.status), [429, 503]);
  });

  it('never answers a hanging step, not even with headers', async () => {
    endpoint.script([{ hang: true }]);
    const abort = new AbortController();
    let answered = false;
    const call = post('/v1beta/models/m:streamGenerateContent?alt=sse', mainBody(), abort.signal).then(
      () => (answered = true),
      (error: unknown) => error,
    );
    await endpoint.waitForMainRequests(1, 10_000);
    // The step is logged before the handler returns, so a response would already be on its way.
    await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    const outcome = await call;
    assert.strictEqual(answered, false);
    assert.ok(outcome instanceof Error && outcome.name === 'AbortError');
  });

  it('leaves other paths alone', () => {
    const api = new GeminiApi();
    assert.ok(api.matches('POST', new URL('http://h/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse')));
    assert.ok(!api.matches('GET', new URL('http://h/v1beta/models/gemini-2.5-pro:generateContent')));
    assert.ok(!api.matches('POST', new URL('http://h/v1/messages')));
    assert.ok(!api.matches('POST', new URL('http://h/v1beta/models/x:embedContent')));
  });
});
