// The IDE tools inside a real VS Code: sessions of the fake agent get the `switchboard` MCP server (HTTP when
// the agent announces it, else the stdio forwarder), and an official MCP SDK client calls every tool on files
// of the workspace: VS Code's built-in JSON and TypeScript support answer. Then every bad request: paths
// outside the session's folders (also through a symlink), relative paths, malformed arguments, positions past
// the end, a huge result, a wrong token, one session's token used for another's MCP session, and a closed
// session's token; the server stops with the last session; the setting turns it off.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { withFakeAgents } from '../integration/helpers';
import { call, httpClient, lastIdeToolsEntry, stdioClient, tokenOf, type HttpEntry, type StdioEntry } from './helpers';

const LIB_TS = 'export function double(n: number): number {\n  return n * 2;\n}\n';
const USE_TS = "import { double } from './lib';\n\nexport const four: number = double(2);\n";
/** `double` in `double(2)` of use.ts (1-based). */
const CALL_SITE = { line: 3, character: 29 };

describe('IDE tools: the switchboard MCP server in the extension host', function () {
  this.timeout(180_000);
  const record = path.join(os.tmpdir(), `switchboard-idetools-${process.pid}-${Date.now()}`);
  const httpRecord = `${record}-http.jsonl`;
  const stdioRecord = `${record}-stdio.jsonl`;
  const context = withFakeAgents({
    'IDE Tools HTTP': [`--record=${httpRecord}`],
    'IDE Tools Stdio': ['--minimal-caps', `--record=${stdioRecord}`],
  });
  const dir = path.join(workspaceRoot(), 'ideTools-sample');
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-idetools-outside-'));
  const file = (name: string) => path.join(dir, name);
  const clients: Client[] = [];
  let sessionA: string;
  let entryA: HttpEntry;
  let client: Client;

  const connect = async (url: string, token: string) => {
    const c = await httpClient(url, token);
    clients.push(c);
    return c;
  };

  before(async () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file('broken.json'), '{\n  "name": "sample"\n  "version": 2\n}\n');
    fs.writeFileSync(file('good.json'), '{\n  "ok": true\n}\n');
    fs.writeFileSync(file('lib.ts'), LIB_TS);
    fs.writeFileSync(file('use.ts'), USE_TS);
    fs.writeFileSync(file('notes.txt'), 'notes\n');
    fs.writeFileSync(file('big.json'), JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key_number_${i}`, i])), null, 1));
    fs.writeFileSync(path.join(outside, 'secret.json'), '{ "secret": 1 ');
    fs.symlinkSync(path.join(outside, 'secret.json'), file('escape.json'));
    sessionA = await context.sb.backend.lifecycle.open('IDE Tools HTTP');
    const entry = lastIdeToolsEntry(httpRecord);
    assert.ok(entry && 'type' in entry && entry.type === 'http', `an http entry named switchboard: ${JSON.stringify(entry)}`);
    entryA = entry;
    client = await connect(entryA.url, tokenOf(entryA));
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
    for (const f of [httpRecord, stdioRecord]) fs.rmSync(f, { force: true });
  });

  it('gives an agent that announces HTTP MCP an http entry on 127.0.0.1 with a bearer token', () => {
    assert.match(entryA.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(tokenOf(entryA), /^[A-Za-z0-9_-]{40,}$/);
  });

  it('lists the eight tools', async () => {
    const { tools } = await client.listTools();
    assert.deepStrictEqual(tools.map((t) => t.name).sort(), ['definition', 'diagnostics', 'document_symbols', 'hover', 'open_editors', 'references', 'selection', 'workspace_symbols']);
  });

  it("diagnostics: VS Code's JSON support reports the syntax error, for the file and in the workspace's list", async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('broken.json')), { preview: false });
    const found = await waitFor(
      async () => {
        const r = await call(client, 'diagnostics', { path: file('broken.json') });
        const list = (r.structured.diagnostics ?? []) as { path: string; severity: string; range: { start: { line: number } } }[];
        return list.length > 0 ? list : undefined;
      },
      'a diagnostic on broken.json',
      90_000,
    );
    assert.ok(found.every((d) => d.path === file('broken.json')));
    assert.ok(found.some((d) => d.severity === 'error' && d.range.start.line === 3), JSON.stringify(found));
    const all = await call(client, 'diagnostics');
    const paths = ((all.structured.diagnostics ?? []) as { path: string }[]).map((d) => d.path);
    assert.ok(paths.includes(file('broken.json')), paths.join(', '));
    assert.ok(paths.every((p) => p.startsWith(workspaceRoot())), 'only files of the session folders');
  });

  it('diagnostics of a file not open in a tab say that it may have unreported problems', async () => {
    const r = await call(client, 'diagnostics', { path: file('notes.txt') });
    assert.deepStrictEqual(r.structured.diagnostics, []);
    assert.match(String(r.structured.note), /not open in an editor tab/);
  });

  it('diagnostics include unsaved changes', async () => {
    const document = await vscode.workspace.openTextDocument(file('good.json'));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), '  "unsaved": ,\n'));
    try {
      await waitFor(
        async () => ((await call(client, 'diagnostics', { path: file('good.json') })).structured.diagnostics as unknown[] | undefined)?.length,
        'a diagnostic on the unsaved edit of good.json',
        60_000,
      );
      assert.strictEqual(fs.readFileSync(file('good.json'), 'utf8'), '{\n  "ok": true\n}\n', 'nothing was saved');
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('definition, hover and references: answered by the built-in TypeScript support', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('use.ts')));
    const at = { path: file('use.ts'), ...CALL_SITE };
    const locations = await waitFor(
      // While its project loads, the TypeScript support answers from use.ts alone (the import).
      async () => {
        const list = (await call(client, 'definition', at)).structured.locations as { path: string; range: { start: { line: number } } }[] | undefined;
        return list?.some((l) => l.path === file('lib.ts')) ? list : undefined;
      },
      'a definition from the TypeScript server',
      120_000,
    );
    assert.deepStrictEqual(locations.map((l) => [l.path, l.range.start.line]), [[file('lib.ts'), 1]]);
    const hover = await call(client, 'hover', at);
    assert.match(((hover.structured.contents ?? []) as string[]).join('\n'), /double\(n: number\): number/);
    const references = await call(client, 'references', { path: file('lib.ts'), line: 1, character: 17 });
    const paths = ((references.structured.locations ?? []) as { path: string }[]).map((l) => l.path);
    assert.ok(paths.includes(file('lib.ts')) && paths.includes(file('use.ts')), paths.join(', '));
  });

  it('document_symbols and workspace_symbols', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('use.ts')));
    const symbols = await waitFor(
      async () => {
        const list = (await call(client, 'document_symbols', { path: file('lib.ts') })).structured.symbols as { name: string; kind: string }[] | undefined;
        return list?.length ? list : undefined;
      },
      'document symbols of lib.ts',
      60_000,
    );
    assert.ok(symbols.some((s) => s.name === 'double' && s.kind === 'function'), JSON.stringify(symbols));
    const jsonSymbols = (await call(client, 'document_symbols', { path: file('good.json') })).structured.symbols as { name: string }[];
    assert.deepStrictEqual(jsonSymbols.map((s) => s.name), ['ok']);
    const found = await waitFor(
      async () => {
        const list = (await call(client, 'workspace_symbols', { query: 'double' })).structured.symbols as { name: string; path: string }[] | undefined;
        // The TypeScript support names functions with their parentheses: `double()`.
        return list?.some((s) => s.name.startsWith('double')) ? list : undefined;
      },
      'double in the workspace symbols',
      120_000,
    );
    assert.ok(found.some((s) => s.name.startsWith('double') && s.path === file('lib.ts')), JSON.stringify(found));
  });

  it('open_editors with dirty state, and selection with its live text', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('use.ts')), { preview: false });
    const notes = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('notes.txt')), { preview: false });
    await notes.edit((e) => e.insert(new vscode.Position(0, 0), 'unsaved '));
    try {
      const editors = (await call(client, 'open_editors')).structured.editors as { path: string; dirty: boolean; active: boolean }[];
      const byPath = new Map(editors.map((e) => [e.path, e]));
      assert.deepStrictEqual({ dirty: byPath.get(file('notes.txt'))?.dirty, active: byPath.get(file('notes.txt'))?.active }, { dirty: true, active: true });
      assert.deepStrictEqual({ dirty: byPath.get(file('use.ts'))?.dirty, active: byPath.get(file('use.ts'))?.active }, { dirty: false, active: false });
      notes.selection = new vscode.Selection(0, 0, 0, 13);
      const selection = await call(client, 'selection');
      assert.deepStrictEqual(selection.structured, {
        path: file('notes.txt'),
        languageId: 'plaintext',
        selections: [{ range: { start: { line: 1, character: 1 }, end: { line: 1, character: 14 } }, text: 'unsaved notes' }],
      });
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('refuses paths outside the session folders (also through a symlink) and relative paths', async () => {
    const outsideFile = await call(client, 'diagnostics', { path: path.join(outside, 'secret.json') });
    assert.ok(outsideFile.isError && /outside the session's folders/.test(outsideFile.text), outsideFile.text);
    const link = await call(client, 'document_symbols', { path: file('escape.json') });
    assert.ok(link.isError && /outside the session's folders/.test(link.text), link.text);
    const up = await call(client, 'hover', { path: `${workspaceRoot()}/../${path.basename(outside)}/secret.json`, line: 1, character: 1 });
    assert.ok(up.isError, up.text);
    const relative = await call(client, 'definition', { path: 'ideTools-sample/use.ts', ...CALL_SITE });
    assert.ok(relative.isError && /absolute/.test(relative.text), relative.text);
    // The link opened in an editor: VS Code reports its problems under the link's path, inside the folder.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('escape.json')), { preview: false });
    try {
      await waitFor(() => vscode.languages.getDiagnostics(vscode.Uri.file(file('escape.json'))).length > 0, 'VS Code checking the linked file', 60_000);
      const all = ((await call(client, 'diagnostics')).structured.diagnostics as { path: string }[]).map((d) => d.path);
      assert.ok(!all.includes(file('escape.json')), `no problems of the linked file: ${all.join(', ')}`);
      const open = await call(client, 'open_editors');
      const editors = (open.structured.editors as { path: string }[]).map((e) => e.path);
      assert.ok(!editors.includes(file('escape.json')) && editors.every((p) => p.startsWith(workspaceRoot())), editors.join(', '));
      assert.ok(Number(open.structured.outsideFolders) >= 1, JSON.stringify(open.structured));
      const selection = await call(client, 'selection');
      assert.deepStrictEqual(selection.structured.selections, []);
      assert.match(String(selection.structured.message), /not in the session's folders/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('refuses malformed arguments and positions past the end of the file', async () => {
    for (const [name, args] of [
      ['definition', { path: file('use.ts'), line: 0, character: 1 }],
      ['hover', { path: file('use.ts'), line: 'three', character: 1 }],
      ['references', { path: file('use.ts') }],
      ['workspace_symbols', { query: 7 }],
      ['diagnostics', { path: ['a'] }],
    ] as const) {
      const r = await call(client, name, args);
      assert.ok(r.isError, `${name} ${JSON.stringify(args)}: ${r.text}`);
    }
    const pastEnd = await call(client, 'definition', { path: file('use.ts'), line: 400, character: 1 });
    assert.ok(pastEnd.isError && /past the end/.test(pastEnd.text), pastEnd.text);
    const missing = await call(client, 'document_symbols', { path: file('missing.ts') });
    assert.ok(missing.isError, missing.text);
  });

  it('cuts a huge result to the budget and says so', async () => {
    const result = await waitFor(
      async () => {
        const r = await call(client, 'document_symbols', { path: file('big.json') });
        return (r.structured.symbols as unknown[] | undefined)?.length ? r : undefined;
      },
      'symbols of big.json',
      60_000,
    );
    assert.ok(!result.isError);
    assert.match(String(result.structured.truncated), /showing \d+ of \d+ symbols/);
    assert.ok(result.text.length <= 60_000, `${result.text.length} characters`);
  });

  it('refuses a wrong token', async () => {
    await assert.rejects(connect(entryA.url, 'not-a-token'), /401|token/i);
  });

  it("one session's token does not reach another session's MCP connection; a closed session's token stops, the server with the last one", async () => {
    const sessionB = await context.sb.backend.lifecycle.open('IDE Tools HTTP');
    const entryB = lastIdeToolsEntry(httpRecord) as HttpEntry;
    assert.notStrictEqual(tokenOf(entryB), tokenOf(entryA), 'a token per session');
    assert.strictEqual(entryB.url, entryA.url, 'one server');
    const clientB = await connect(entryB.url, tokenOf(entryB));
    const sessionIdA = (client.transport as { sessionId?: string }).sessionId!;
    const crossed = await fetch(entryA.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenOf(entryB)}`, 'mcp-session-id': sessionIdA, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'open_editors', arguments: {} } }),
    });
    assert.strictEqual(crossed.status, 404);

    await context.sb.backend.lifecycle.close(sessionA);
    await waitFor(async () => (await call(client, 'open_editors')).isError, "session A's connection refused after it closed");
    await assert.rejects(connect(entryA.url, tokenOf(entryA)), /401|token/i);
    assert.ok(!(await call(clientB, 'open_editors')).isError, 'session B still served');

    await context.sb.backend.lifecycle.close(sessionB);
    await waitFor(async () => (await call(clientB, 'open_editors')).isError, "session B's connection refused after it closed");
    if (context.sb.backend.sessions.snapshots().length === 0) {
      await waitFor(async () => fetch(entryA.url).then(() => false, () => true), 'the server to stop with the last session');
    }
  });

  it('gives an agent without HTTP MCP the stdio forwarder, run by VS Code\'s runtime, that reaches the same tools', async () => {
    await context.sb.backend.lifecycle.open('IDE Tools Stdio');
    const entry = lastIdeToolsEntry(stdioRecord) as StdioEntry;
    assert.ok(entry && !('type' in entry), JSON.stringify(entry));
    assert.strictEqual(entry.command, process.execPath);
    assert.match(entry.args[0], /dist[\\/]ideToolsStdio\.js$/);
    assert.deepStrictEqual(entry.env.map((e) => e.name).sort(), ['ELECTRON_RUN_AS_NODE', 'SWITCHBOARD_IDE_TOOLS_TOKEN', 'SWITCHBOARD_IDE_TOOLS_URL']);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('broken.json')), { preview: false });
    const stdio = await stdioClient(entry);
    clients.push(stdio);
    const found = await waitFor(
      async () => ((await call(stdio, 'diagnostics', { path: file('broken.json') })).structured.diagnostics as { severity: string }[] | undefined)?.find((d) => d.severity === 'error'),
      'the JSON error through the forwarder',
      60_000,
    );
    assert.ok(found);
    const refused = await call(stdio, 'diagnostics', { path: path.join(outside, 'secret.json') });
    assert.ok(refused.isError && /outside the session's folders/.test(refused.text), refused.text);
  });

  it('gives no switchboard server when switchboard.ideTools is off', async () => {
    const restore = await setSettings({ 'switchboard.ideTools': false });
    try {
      await context.sb.backend.lifecycle.open('IDE Tools HTTP');
      assert.strictEqual(lastIdeToolsEntry(httpRecord), undefined);
    } finally {
      await restore();
    }
  });
});
