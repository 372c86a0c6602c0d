// Restoring a 50-file checkpoint (30 files edited, 10 created, 10 deleted by the agent, in a 2,000-file
// folder), measured in the extension host (code-server) by test/host/diff/checkpointBench.test.ts: the plan
// (snapshot now, diff against the checkpoint, its bytes from the shadow repository) and the one
// WorkspaceEdit that writes them back. Writes the "checkpoints" section of bench/RESULTS.md.
//   node out/bench/checkpoints.bench.js
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeResultsSection } from './lib/results';

interface HostResults {
  vscode: string;
  folderFiles: number;
  runs: number;
  planMs: number;
  writeMs: number;
  totalMs: number;
}

const REPO = path.resolve(__dirname, '..', '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-checkpoints-bench-'));
const json = path.join(dir, 'host.json');
const r = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'run-host-tests.mjs'), '--grep', 'checkpoints host bench'], {
  cwd: REPO,
  env: { ...process.env, SWITCHBOARD_CHECKPOINTS_BENCH: json },
  encoding: 'utf8',
  timeout: 20 * 60_000,
});
if (!fs.existsSync(json)) {
  console.error(`checkpoints bench: the extension-host half did not run (exit ${r.status}):\n${`${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-10).join('\n')}`);
  process.exit(1);
}
const h = JSON.parse(fs.readFileSync(json, 'utf8')) as HostResults;
fs.rmSync(dir, { recursive: true, force: true });
const load = os.loadavg()[0].toFixed(1);
const section = [
  '## Checkpoints: restoring a 50-file checkpoint',
  '',
  `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, load average ${load} (other jobs share the machine). \`npm run bench -- checkpoints\`:`,
  `in the extension host of VS Code ${h.vscode} (code-server), a folder of ${h.folderFiles.toLocaleString('en')} files whose agent turn edited 30, created 10`,
  `and deleted 10; median of ${h.runs} restores, each checked byte for byte.`,
  '',
  '| step | ms (median) |',
  '|---|---|',
  `| plan: snapshot now, diff against the checkpoint, the 40 files' bytes then (git child processes) | ${h.planMs.toFixed(0)} |`,
  `| restore: one WorkspaceEdit (delete + create with the bytes, 50 files), then each file read back | ${h.writeMs.toFixed(0)} |`,
  `| total | ${h.totalMs.toFixed(0)} |`,
].join('\n');
writeResultsSection('checkpoints', section);
console.log(section);
