// Not a test: the IDE tools' latency in the extension host, measured when SWITCHBOARD_IDETOOLS_BENCH names a
// JSON file for the results (skipped otherwise; nothing here asserts timings). Each tool is called through
// the official MCP SDK client over the session's HTTP entry (loopback, token, MCP, VS Code's providers and
// back), after a warm-up that waits for the TypeScript project to load.
//   SWITCHBOARD_IDETOOLS_BENCH=/tmp/idetools-bench.json node scripts/run-host-tests.mjs --grep 'IDE tools bench'
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { median } from '../../../bench/lib/stats';
import { waitFor, workspaceRoot } from '../index';
import { withFakeAgents } from '../integration/helpers';
import { call, httpClient, lastIdeToolsEntry, tokenOf, type HttpEntry } from './helpers';

const OUT = process.env.SWITCHBOARD_IDETOOLS_BENCH;
const RUNS = 30;

describe('IDE tools bench (latency in the extension host)', function () {
  this.timeout(10 * 60_000);
  const record = path.join(os.tmpdir(), `switchboard-idetools-bench-${process.pid}.jsonl`);
  const context = withFakeAgents({ 'IDE Tools Bench': [`--record=${record}`] });
  const dir = path.join(workspaceRoot(), 'ideTools-bench');
  let client: Client;

  before(async function () {
    if (!OUT) this.skip();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'lib.ts'), 'export function double(n: number): number {\n  return n * 2;\n}\n');
    fs.writeFileSync(path.join(dir, 'use.ts'), "import { double } from './lib';\n\nexport const four: number = double(2);\n");
    fs.writeFileSync(path.join(dir, 'broken.json'), '{\n  "a": 1\n  "b": 2\n}\n');
    await context.sb.backend.lifecycle.open('IDE Tools Bench');
    const entry = lastIdeToolsEntry(record) as HttpEntry;
    client = await httpClient(entry.url, tokenOf(entry));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(dir, 'broken.json')), { preview: false });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(dir, 'use.ts')), { preview: false });
    await waitFor(
      async () => ((await call(client, 'definition', { path: path.join(dir, 'use.ts'), line: 3, character: 29 })).structured.locations as { path: string }[] | undefined)?.some((l) => l.path.endsWith('lib.ts')),
      'the TypeScript project',
      180_000,
    );
  });

  after(async () => {
    if (!OUT) return;
    await client?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(record, { force: true });
  });

  it('median and p95 of each tool over MCP/HTTP', async () => {
    const at = { path: path.join(dir, 'use.ts'), line: 3, character: 29 };
    const calls: [string, Record<string, unknown>][] = [
      ['diagnostics', { path: path.join(dir, 'broken.json') }],
      ['diagnostics', {}],
      ['document_symbols', { path: path.join(dir, 'lib.ts') }],
      ['workspace_symbols', { query: 'double' }],
      ['definition', at],
      ['references', at],
      ['hover', at],
      ['open_editors', {}],
      ['selection', {}],
    ];
    const results: Record<string, { medianMs: number; p95Ms: number }> = {};
    for (const [name, args] of calls) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        const r = await call(client, name, args);
        times.push(performance.now() - started);
        if (r.isError) throw new Error(`${name}: ${r.text}`);
      }
      times.sort((a, b) => a - b);
      results[`${name}${Object.keys(args).length === 0 && name === 'diagnostics' ? ' (workspace)' : ''}`] = {
        medianMs: Number(median(times).toFixed(2)),
        p95Ms: Number(times[Math.floor(times.length * 0.95)].toFixed(2)),
      };
    }
    fs.writeFileSync(OUT!, JSON.stringify({ vscode: vscode.version, runs: RUNS, results }, null, 2));
  });
});
