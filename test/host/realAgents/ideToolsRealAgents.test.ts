// Real agents from npm call the IDE tools through the extension: Claude Agent gets the `switchboard` MCP server
// over HTTP (it announces mcpCapabilities.http), Qwen Code over stdio (the forwarder in dist/). The scripted
// model endpoint calls `diagnostics` on a JSON file with a syntax error and `definition` on a TypeScript call
// site by the agent's own names for them (`mcp__switchboard__<tool>`); the endpoint's log then holds the tool
// results the agent sent back: VS Code's answers (the JSON error, the definition in the other file). The
// agent reports the calls itself, so they are tool calls in the transcript. Both agents defer MCP tools
// behind their tool search (measured: the first request offers ToolSearch / tool_search, not the MCP tools).
// Qwen connects its MCP servers in the background after session/new: its test prompts once Switchboard's log
// says Qwen's client has listed the IDE tools, so the model calls each tool once.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ApiHandler } from '../../fixtures/modelEndpoint/endpoint';
import { AnthropicApi, type NamedToolStep } from '../../fixtures/modelEndpoint/anthropic';
import { chatToolResults, openaiChatNamedTools, type ChatNamedToolStep } from '../../fixtures/modelEndpoint/chatNamedTools';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { qwenRecipe } from '../../fixtures/realAgents/qwen';
import type { RealAgentRecipe } from '../../fixtures/realAgents/recipe';
import { switchboardLog, waitFor, workspaceRoot } from '../index';
import { cardText, describeFailure, lastTurn, REAL_TURN_TIMEOUT_MS, runTurn, transcript, withRealAgent } from './realAgentTurns';

const LIB_TS = 'export function triple(n: number): number {\n  return n * 3;\n}\n';
const USE_TS = "import { triple } from './lib';\n\nexport const nine: number = triple(3);\n";
/** `triple` in `triple(3)` of use.ts (1-based). */
const CALL_SITE = { line: 3, character: 29 };

/** The texts of the tool results an Anthropic Messages request carries back. */
function anthropicToolResults(body: unknown): string[] {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const text = (content: unknown) =>
    typeof content === 'string' ? content : Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? '').join('') : '';
  return messages.flatMap((m) =>
    Array.isArray(m.content) ? (m.content as { type: string; content?: unknown }[]).filter((b) => b.type === 'tool_result').map((b) => text(b.content)) : [],
  );
}

/** The tool names a main request offered (Anthropic `name`, Chat Completions `function.name`). */
function offeredToolNames(body: unknown): string[] {
  const tools = (body as { tools?: { name?: string; function?: { name?: string } }[] }).tools ?? [];
  return tools.map((t) => t.name ?? t.function?.name ?? '?');
}

interface Case {
  recipe: RealAgentRecipe;
  transport: string;
  handlers: () => readonly ApiHandler[];
  steps(broken: string, use: string): (NamedToolStep | ChatNamedToolStep)[];
  toolResults(body: unknown): string[];
  /** The agent connects its MCP servers after session/new, in the background: wait for it before prompting. */
  connectsLater?: boolean;
}

const cases: Case[] = [
  {
    recipe: claudeRecipe,
    transport: 'HTTP',
    handlers: () => [new AnthropicApi()],
    // Claude Agent 0.101 defers MCP tools: ToolSearch loads them, then they are called by name.
    steps: (broken, use) => [
      { text: 'Loading the IDE tools.', namedTools: [{ name: 'ToolSearch', input: { query: 'select:mcp__switchboard__diagnostics,mcp__switchboard__definition', max_results: 2 } }] },
      {
        text: 'Asking VS Code.',
        namedTools: [
          { name: 'mcp__switchboard__diagnostics', input: { path: broken } },
          { name: 'mcp__switchboard__definition', input: { path: use, ...CALL_SITE } },
        ],
      },
      { text: 'VS Code answered.' },
    ],
    toolResults: anthropicToolResults,
  },
  {
    recipe: qwenRecipe,
    transport: 'stdio',
    // Qwen Code 0.24 defers MCP tools behind tool_search / tool_call, and connects MCP servers in the background:
    // measured, the search (of the tools deferred at the session's start) answers "Not found", while tool_call
    // reaches a tool once its registry has the server's tools ("is not registered" until then). On a loaded
    // machine that is seconds after its client listed them: the model then calls the tools again.
    handlers: () => [openaiChatNamedTools({ retryWhen: /is not registered/ })],
    connectsLater: true,
    steps: (broken, use) => [
      { text: 'Loading the IDE tools.', namedTools: [{ tool: 'tool_search', input: { query: 'select:mcp__switchboard__diagnostics,mcp__switchboard__definition' } }] },
      {
        text: 'Asking VS Code.',
        namedTools: [
          { tool: 'tool_call', input: { name: 'mcp__switchboard__diagnostics', arguments: { path: broken } } },
          { tool: 'tool_call', input: { name: 'mcp__switchboard__definition', arguments: { path: use, ...CALL_SITE } } },
        ],
      },
      { text: 'VS Code answered.' },
    ],
    toolResults: chatToolResults,
  },
];

for (const c of cases) {
  describe(`real agent ${c.recipe.label}: IDE tools over ${c.transport}`, function () {
    this.timeout(REAL_TURN_TIMEOUT_MS * 2);
    const ctx = withRealAgent(c.recipe, c.handlers, { permissions: 'ask' });
    const dir = path.join(workspaceRoot(), `ideTools-${c.recipe.id}`);
    const broken = path.join(dir, 'broken.json');
    const lib = path.join(dir, 'lib.ts');
    const use = path.join(dir, 'use.ts');

    before(async () => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(broken, '{\n  "name": "sample"\n  "version": 2\n}\n');
      fs.writeFileSync(lib, LIB_TS);
      fs.writeFileSync(use, USE_TS);
      // VS Code's own answers, ready before the agent asks: the JSON error (checked in an open tab) and the
      // TypeScript project loaded (before that, the definition of an import is the import itself).
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(broken), { preview: false });
      await waitFor(() => vscode.languages.getDiagnostics(vscode.Uri.file(broken)).length > 0, 'the JSON error in VS Code', 90_000);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(use), { preview: false });
      await waitFor(
        async () => {
          const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', vscode.Uri.file(use), new vscode.Position(CALL_SITE.line - 1, CALL_SITE.character - 1));
          return found?.some((l) => ('targetUri' in l ? l.targetUri : l.uri).fsPath === lib);
        },
        'the TypeScript definition in lib.ts',
        150_000,
      );
    });

    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('calls diagnostics and definition and gets VS Code\'s answers', async () => {
      ctx.sessionId = await ctx.sb.backend.lifecycle.open(ctx.agent.name);
      const id = ctx.sessionId;
      const listed = `IDE tools: ${ctx.agent.name} (session ${id.slice(0, 8)}) listed the tools`;
      if (c.connectsLater) await waitFor(() => switchboardLog().includes(listed), `the log to say "${listed}"`, REAL_TURN_TIMEOUT_MS);
      const result = await runTurn(ctx.sb, id, 'Ask VS Code about broken.json and triple.', c.steps(broken, use), ctx.agent.endpoint, 'allow_once');
      assert.strictEqual(result.error, undefined, `the turn failed: ${result.error}`);

      // The results the agent sent back to the model: what the IDE tools answered.
      const results = ctx.agent.endpoint.mainRequests().flatMap((r) => c.toolResults(r.body));
      const diagnostics = results.find((t) => t.includes('"diagnostics"'));
      const offered = ctx.agent.endpoint.mainRequests().map((r, i) => `request ${i} offered: ${offeredToolNames(r.body).join(', ')}`);
      const failure = () => `${results.join('\n---\n').slice(0, 3000)}\n${offered.join('\n')}${describeFailure(ctx.agent, ctx.sb, id)}`;
      assert.ok(diagnostics, `a diagnostics result in the endpoint's log:\n${failure()}`);
      assert.ok(diagnostics.includes(`"path":${JSON.stringify(broken)}`) && diagnostics.includes('"severity":"error"'), diagnostics);
      const definition = results.find((t) => t.includes('"locations"'));
      assert.ok(definition, `a definition result in the endpoint's log:\n${failure()}`);
      assert.ok(definition.includes(`"path":${JSON.stringify(lib)}`), definition);

      // Shown in the chat as the agent's own tool calls.
      const calls = lastTurn(transcript(ctx.sb, id)).filter((i) => i.kind === 'tool_call');
      assert.ok(calls.some((i) => /diagnostics/.test(cardText(i))), `a diagnostics tool call: ${calls.map((i) => cardText(i).slice(0, 200)).join(' | ')}`);
      assert.ok(calls.some((i) => /definition/.test(cardText(i))), `a definition tool call: ${calls.map((i) => cardText(i).slice(0, 200)).join(' | ')}`);
    });
  });
}
