// What a turn's baseline (diff review's shadow Git repository) costs at the start and at the end of a
// turn, on the sample workspace and on a large generated one (50,000 files, ~1 GB, plus node_modules and
// an ignored build folder), measured through the same `Baselines` class the extension uses. Wall time is
// what the turn waits; "main CPU" is what this process (the extension host's thread, in the extension)
// spends, the rest runs in git child processes. Writes the "baselines" section of bench/RESULTS.md.
//   node out/bench/baselines.bench.js [--files=50000] [--mb=1000] [--keep]
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Baselines, TurnBaseline } from '../src/host/diff/baseline/baselines';
import type { DiffLogger } from '../src/host/diff/types';
import { writeResultsSection } from './lib/results';
import { median } from './lib/stats';

const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const FILES = arg('files', 50_000);
const MB = arg('mb', 1000);
const keep = process.argv.includes('--keep');
const REPS = 5;

const log: DiffLogger = { info: () => undefined, warn: (m) => console.warn(m), error: (m) => console.error(m), debug: () => undefined };

interface Timed<T> {
  value: T;
  wallMs: number;
  cpuMs: number;
}

async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const value = await work();
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return { value, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

/** A large folder: FILES text files of ~MB/FILES bytes in 500 folders, node_modules and an ignored dist/. */
function generate(dir: string): void {
  const marker = path.join(dir, '.generated');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === `${FILES}/${MB}`) return;
  fs.rmSync(dir, { recursive: true, force: true });
  const perFile = Math.floor((MB * 1024 * 1024) / FILES);
  const folders = Math.max(1, Math.ceil(FILES / 100));
  for (let f = 0; f < folders; f++) fs.mkdirSync(path.join(dir, 'src', `pkg${f}`), { recursive: true });
  for (let i = 0; i < FILES; i++) {
    // Source-like text that compresses about as well as code does (half repeated, half random hex).
    const random = crypto.randomBytes(Math.ceil(perFile / 4)).toString('hex');
    const text = `// file ${i}\n${'export const value = 42;\n'.repeat(Math.ceil(perFile / 50))}${random}\n`.slice(0, perFile);
    fs.writeFileSync(path.join(dir, 'src', `pkg${i % folders}`, `file${i}.ts`), text);
  }
  fs.mkdirSync(path.join(dir, 'node_modules', 'dep'), { recursive: true });
  for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(dir, 'node_modules', 'dep', `m${i}.js`), 'module.exports = 1;\n');
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(dir, 'dist', `out${i}.js`), 'built\n');
  fs.writeFileSync(path.join(dir, '.gitignore'), 'dist/\n');
  fs.writeFileSync(marker, `${FILES}/${MB}`);
}

/** What an agent's turn does: edits 10 files, creates 2, deletes 1, renames 1. */
function agentTurn(dir: string, round: number): void {
  const files = fs.readdirSync(path.join(dir, 'src', 'pkg0')).filter((f) => f.endsWith('.ts')).sort();
  for (const f of files.slice(0, 10)) fs.appendFileSync(path.join(dir, 'src', 'pkg0', f), `// round ${round}\n`);
  fs.writeFileSync(path.join(dir, 'src', `new-${round}-a.ts`), 'new\n');
  fs.writeFileSync(path.join(dir, 'src', `new-${round}-b.ts`), 'new\n');
  fs.rmSync(path.join(dir, 'src', 'pkg0', files[files.length - 1]));
  fs.renameSync(path.join(dir, 'src', 'pkg0', files[files.length - 2]), path.join(dir, 'src', 'pkg0', `renamed-${round}.ts`));
}

function du(dir: string): string {
  try {
    return execFileSync('du', ['-sh', dir]).toString().split('\t')[0];
  } catch {
    return '?';
  }
}

interface Row {
  what: string;
  wall: string;
  cpu: string;
}

async function measure(name: string, dir: string, storage: string): Promise<{ rows: Row[]; size: string; changes: number }> {
  fs.rmSync(storage, { recursive: true, force: true });
  const baselines = new Baselines(storage, log, 10 * 60_000);
  const rows: Row[] = [];
  const fmt = (t: Timed<unknown>) => ({ wall: `${(t.wallMs / 1000).toFixed(2)} s`, cpu: `${t.cpuMs.toFixed(0)} ms` });
  try {
    const first = await timed(() => baselines.take([dir]));
    if (!first.value) throw new Error('no baseline');
    rows.push({ what: `${name}: first turn start (creates the shadow repository, hashes every file)`, ...fmt(first) });
    const starts: Timed<TurnBaseline | undefined>[] = [];
    const ends: Timed<unknown>[] = [];
    let changes = 0;
    for (let r = 0; r < REPS; r++) {
      const start = await timed(() => baselines.take([dir]));
      starts.push(start);
      agentTurn(dir, r);
      const end = await timed(async () => (await start.value?.changes())?.changes.length ?? 0);
      changes = end.value;
      ends.push(end);
    }
    const pick = (ts: Timed<unknown>[]) => {
      const wall = median(ts.map((t) => t.wallMs));
      const cpu = median(ts.map((t) => t.cpuMs));
      return { wall: `${(wall / 1000).toFixed(2)} s`, cpu: `${cpu.toFixed(0)} ms` };
    };
    rows.push({ what: `${name}: later turn start (median of ${REPS})`, ...pick(starts) });
    rows.push({ what: `${name}: turn end, ${changes} files changed: snapshot + diff + the before of each (median of ${REPS})`, ...pick(ends) });
    return { rows, size: du(storage), changes };
  } finally {
    baselines.dispose();
  }
}

async function main(): Promise<void> {
  const root = path.join(os.tmpdir(), 'switchboard-bench-baselines');
  const large = path.join(root, 'large');
  const sample = path.join(root, 'sample');
  fs.mkdirSync(root, { recursive: true });
  const gen = await timed(async () => generate(large));
  console.log(`large workspace ready in ${(gen.wallMs / 1000).toFixed(1)} s: ${du(large)}`);
  fs.rmSync(sample, { recursive: true, force: true });
  fs.cpSync(path.resolve(__dirname, '../../test/fixtures/workspace'), sample, { recursive: true });
  fs.mkdirSync(path.join(sample, 'src', 'pkg0'), { recursive: true });
  for (let i = 0; i < 12; i++) fs.writeFileSync(path.join(sample, 'src', 'pkg0', `f${i}.ts`), `export const f${i} = ${i};\n`);

  const small = await measure('sample workspace', sample, path.join(root, 'storage-sample'));
  const big = await measure(`${FILES.toLocaleString('en')} files, ${du(large)}`, large, path.join(root, 'storage-large'));
  const load = os.loadavg()[0].toFixed(1);
  const git = execFileSync('git', ['--version']).toString().trim();
  const table = [...small.rows, ...big.rows].map((r) => `| ${r.what} | ${r.wall} | ${r.cpu} |`).join('\n');
  const section = `## Turn baselines (changed files, checkpoints)

Node ${process.version}, ${os.cpus().length} cores, ${os.platform()}, ${git}, load average ${load} at the end (other jobs share the machine);
${new Date().toISOString().slice(0, 10)}. \`node out/bench/baselines.bench.js\` (\`npm run bench -- baselines\`): the \`Baselines\` class the
extension uses, a shadow Git repository per folder in the extension's storage. A turn: 10 files edited, 2 created, 1 deleted,
1 renamed. "Main CPU" is this process's own CPU time (in the extension: the extension host's thread); the rest is git in child processes.

| step | wall time | main CPU |
|---|---|---|
${table}

Shadow repository on disk after ${REPS + 1} turns: ${small.size} (sample), ${big.size} (large; the files compress with zlib level 1).
The first turn of a folder waits at most 15 s for its snapshot: where it takes longer the turn goes on with file events and
tool calls only (logged) while the snapshot finishes in the background, so the next turn has its baseline.
`;
  console.log(section);
  writeResultsSection('baselines', section);
  if (!keep) fs.rmSync(path.join(root, 'storage-large'), { recursive: true, force: true });
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
