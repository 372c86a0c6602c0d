#!/usr/bin/env node
/* global process, console */
// Activation benchmark (issue 13), in the real workbench: the packaged VSIX in code-server 4.100.3 (VS Code
// 1.100.3) driven by headless Chromium (the e2e infra's scripts/lib helpers). bench/lib/load-probe.cjs is
// preloaded into code-server's Node processes (NODE_OPTIONS) and records, in the extension host, every
// script of the extension Node loads, how long activate() takes, and when the first agent process starts.
// Each run:
//   run 1: the Switchboard view opened in a fresh window (activation by onView:switchboard.chat);
//   runs 2..N: the window reloaded with the chat on screen and a session tab to restore (activation at
//   startup with the chat visible: what loads is what the chat needs to show its agents and history);
// then, once the chat lists the agents, "New session" starts the demo agent.
// Reported: activate() (median of the N runs), the bytes of our script loaded at activation, while the chat
// shows before any agent starts, and by the time the first agent's process is spawned (it loads the protocol
// engine), and the time from VS Code starting the activation (its `_doActivateExtension` log line) to our
// "activated" and "services started" log lines.
// Targets (issue 13): activate() <= 50 ms; <= ~300 KB of script loaded before the first agent starts.
// Benchmarks are not tests: nothing here fails on a number; the report goes between the "activation"
// markers of bench/RESULTS.md (through bench/lib/results.ts, compiled by `npm run bench`).
//
// Usage: node bench/activation.bench.mjs [--runs <n>] [--vsix <file>] [--compare <file.vsix> --compare-label <text>] [--no-write]
//   --vsix     measure this VSIX (default: package the working tree with scripts/package.mjs)
//   --compare  also measure another VSIX in the same run (e.g. one built before a change), reported beside it
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, waitForWorkbench } from '../scripts/lib/browser.mjs';
import { ensureCodeServer, installVsix, startCodeServer, workbenchUrl } from '../scripts/lib/code-server.mjs';
import { DEMO_AGENT, EXTENSION_ID, REPO, TEST_RESULTS } from '../scripts/lib/paths.mjs';
import { cleanupAll, onCleanup, run, sleep } from '../scripts/lib/proc.mjs';
import { makeRunDirs, removeDir } from '../scripts/lib/workspace.mjs';
import { benchLib } from './lib/compiled.mjs';

const { median } = benchLib('stats');

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    vsix: { type: 'string' },
    compare: { type: 'string' },
    'compare-label': { type: 'string', default: 'compared VSIX' },
    'no-write': { type: 'boolean', default: false },
  },
});
const RUNS = Math.max(1, Number(opts.runs));
const PROBE = join(REPO, 'bench', 'lib', 'load-probe.cjs');
const ACTIVATE_TARGET_MS = 50;
const BYTES_TARGET = 300_000;
const say = (m) => console.log(`[bench:activation] ${m}`);
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const kb = (n) => (Number.isFinite(n) ? `${(n / 1000).toFixed(1)} KB` : 'n/a');

// ---- the probe's records and VS Code's logs ----------------------------------------------------------------

function readProbe(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** Resolves with the pid of an extension host that loaded dist/extension.js and is not in `known`. */
async function newExtensionHost(probeFile, known, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const load = readProbe(probeFile).find((e) => e.kind === 'load' && e.file.endsWith(`${sep}dist${sep}extension.js`) && !known.has(e.pid));
    if (load) return load.pid;
    await sleep(100);
  }
  throw new Error('no extension host loaded the extension');
}

async function waitForProbe(probeFile, pid, kind, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const event = readProbe(probeFile).find((e) => e.pid === pid && e.kind === kind);
    if (event) return event;
    await sleep(100);
  }
  throw new Error(`the probe saw no ${kind} in extension host ${pid}`);
}

/** `2026-11-24 03:44:11.142 [info] message` lines of the log files named `name` under the user data's logs. */
function logLines(userDataDir, match) {
  const lines = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (match(p)) {
        for (const line of readFileSync(p, 'utf8').split('\n')) {
          const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) \[\w+\] (.*)$/.exec(line);
          if (m) lines.push({ at: new Date(`${m[1]}T${m[2]}`).getTime(), text: m[3], file: p });
        }
      }
    }
  };
  const logs = join(userDataDir, 'logs');
  if (existsSync(logs)) walk(logs);
  return lines.sort((a, b) => a.at - b.at);
}

// ---- driving the workbench ------------------------------------------------------------------------------

async function chatFrame(page) {
  const outer = await page.locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`).first().elementHandle({ timeout: 120_000 });
  const host = await outer.contentFrame();
  const inner = await host.locator('#active-frame').elementHandle({ timeout: 120_000 });
  const frame = await inner.contentFrame();
  await frame.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible', timeout: 120_000 });
  return frame;
}

/** The chat shows its agents: the Agent picker lists the demo agent. */
async function agentsListed(frame, agent) {
  const picker = frame.getByRole('combobox', { name: 'Agent' });
  for (let i = 0; i < 600; i++) {
    if ((await picker.locator('option').allTextContents()).includes(agent)) return;
    await sleep(100);
  }
  throw new Error(`the chat never listed ${agent}`);
}

async function openSwitchboard(page) {
  const item = page.locator('.part.activitybar .action-item[role="tab"]').filter({ has: page.locator('a.action-label[aria-label^="Switchboard"]') }).first();
  await item.waitFor({ state: 'visible', timeout: 120_000 });
  if ((await item.getAttribute('aria-selected')) !== 'true') await item.click();
}

/** Measures one VSIX: RUNS activations, each followed by the first agent starting. */
async function measure(vsix, label) {
  const dirs = makeRunDirs('switchboard-bench-activation', {
    settings: { 'switchboard.agents': { 'Demo Agent': { command: process.execPath, args: [DEMO_AGENT] } }, 'switchboard.defaultAgent': 'Demo Agent' },
  });
  onCleanup(() => removeDir(dirs.root));
  await installVsix(vsix, dirs);
  const probeFile = join(dirs.root, 'probe.jsonl');
  const extensionDir = `${dirs.extensionsDir}${sep}`;
  const server = await startCodeServer({
    folder: dirs.workspace,
    userDataDir: dirs.userDataDir,
    extensionsDir: dirs.extensionsDir,
    logFile: join(TEST_RESULTS, 'bench', 'activation-code-server.log'),
    env: {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${PROBE}`.trim(),
      SWITCHBOARD_PROBE_OUT: probeFile,
      SWITCHBOARD_PROBE_EXTENSION: extensionDir,
      SWITCHBOARD_PROBE_AGENT: DEMO_AGENT,
    },
  });
  onCleanup(() => server.stop());
  const browser = await launchChromium();
  onCleanup(() => browser.close().catch(() => {}));
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(workbenchUrl(server), { waitUntil: 'domcontentloaded', timeout: 120_000 });
  await waitForWorkbench(page, { timeout: 120_000 });

  const known = new Set();
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    if (i === 0) await openSwitchboard(page);
    else {
      await page.reload({ waitUntil: 'domcontentloaded', timeout: 120_000 });
      await waitForWorkbench(page, { timeout: 120_000 });
    }
    const pid = await newExtensionHost(probeFile, known);
    known.add(pid);
    const frame = await chatFrame(page);
    await agentsListed(frame, 'Demo Agent');
    const beforeAgent = Date.now();
    const agentsAt = beforeAgent;
    await frame.getByRole('button', { name: 'New session', exact: true }).click();
    const spawn = await waitForProbe(probeFile, pid, 'agentSpawn');
    await frame.getByText('Ask the agent anything').waitFor({ timeout: 120_000 });
    const events = readProbe(probeFile).filter((e) => e.pid === pid);
    const activate = events.find((e) => e.kind === 'activate');
    const loads = events.filter((e) => e.kind === 'load');
    const entry = loads.find((e) => e.file.endsWith(`${sep}dist${sep}extension.js`));
    const bytesUntil = (t) => loads.filter((e) => e.at <= t).reduce((n, e) => n + e.bytes, 0);
    // VS Code's start of the activation and our log lines, in this extension host's logs.
    const started = logLines(dirs.userDataDir, (p) => p.endsWith('exthost.log')).filter((l) => l.text.includes(`_doActivateExtension ${EXTENSION_ID}`) && l.at <= entry.startedAt + 5).pop();
    const ours = started ? logLines(dirs.userDataDir, (p) => p.endsWith('Switchboard.log')).filter((l) => l.at >= started.at && l.at <= spawn.at + 60_000) : [];
    const activated = ours.find((l) => /activated in VS Code/.test(l.text));
    const servicesLine = ours.find((l) => /services started in (\d+) ms/.test(l.text));
    const r = {
      run: i + 1,
      trigger: i === 0 ? 'Switchboard view opened' : 'reload, chat on screen',
      activationEvent: started ? (/activationEvent: '([^']+)'/.exec(started.text)?.[1] ?? '') : '',
      activateMs: activate?.ms ?? NaN,
      entryLoadMs: entry?.ms ?? NaN,
      bytesAtActivation: activate ? bytesUntil(activate.at) : NaN,
      bytesBeforeAgent: bytesUntil(beforeAgent),
      filesBeforeAgent: loads.filter((e) => e.at <= beforeAgent).length,
      bytesAtAgentSpawn: bytesUntil(spawn.at),
      servicesMs: servicesLine ? Number(/services started in (\d+) ms/.exec(servicesLine.text)[1]) : NaN,
      toActivateReturned: started && activate ? activate.at - started.at : NaN,
      toAgentsListed: started ? agentsAt - started.at : NaN,
      toActivatedLog: started && activated ? activated.at - started.at : NaN,
      toServicesLog: started && servicesLine ? servicesLine.at - started.at : NaN,
      files: loads.map((e) => ({ file: e.file.slice(e.file.indexOf(`${sep}dist${sep}`) + 1), bytes: e.bytes, beforeAgent: e.at <= beforeAgent, ms: Math.round(e.ms) })),
    };
    say(`${label}, run ${r.run} (${r.trigger}): activate() ${fmt(r.activateMs, 1)} ms, ${kb(r.bytesAtActivation)} at activation, ${kb(r.bytesBeforeAgent)} before the first agent, ${kb(r.bytesAtAgentSpawn)} when it spawned; activation start -> "activated" log ${fmt(r.toActivatedLog)} ms`);
    runs.push(r);
  }
  await browser.close().catch(() => {});
  await server.stop();
  removeDir(dirs.root);
  return { label, vsix, runs };
}

// ---- the report -----------------------------------------------------------------------------------------

function summary(m) {
  const med = (k) => median(m.runs.map((r) => r[k]));
  return {
    activateMs: med('activateMs'),
    bytesAtActivation: med('bytesAtActivation'),
    bytesBeforeAgent: med('bytesBeforeAgent'),
    bytesAtAgentSpawn: med('bytesAtAgentSpawn'),
    toActivateReturned: med('toActivateReturned'),
    toAgentsListed: med('toAgentsListed'),
    toActivatedLog: med('toActivatedLog'),
    toServicesLog: med('toServicesLog'),
    servicesMs: med('servicesMs'),
  };
}

function report(measured, env) {
  const [main, ...others] = measured;
  const s = summary(main);
  const hit = (ok) => (ok ? '**met**' : '**missed**');
  const lines = [
    '## Activation',
    '',
    `Real workbench: the packaged VSIX in code-server 4.100.3 (VS Code 1.100.3), headless Chromium; bench/lib/load-probe.cjs preloaded into the extension host records each script of ours Node loads, activate()'s duration and the first agent process starting. Node ${process.version}, ${os.cpus().length} cores, load average ${env.load} at the start (other jobs share the machine: compare rows of one run, not runs); ${new Date().toISOString().slice(0, 10)}. \`node bench/activation.bench.mjs\`.`,
    '',
    `Targets (issue 13): activate() <= ${ACTIVATE_TARGET_MS} ms — ${hit(s.activateMs <= ACTIVATE_TARGET_MS)}: median **${fmt(s.activateMs, 1)} ms** of ${main.runs.length} runs. At most ~${BYTES_TARGET / 1000} KB of script before the first agent starts — activation alone loads **${kb(s.bytesAtActivation)}** (${hit(s.bytesAtActivation <= BYTES_TARGET)} when the chat is not on screen); with the chat on screen, what it needs to show its agents and history is **${kb(s.bytesBeforeAgent)}** (median) — ${hit(s.bytesBeforeAgent <= BYTES_TARGET)}. Starting the first agent then loads the protocol engine: ${kb(s.bytesAtAgentSpawn)} in all by the time its process is spawned.`,
    `From VS Code starting the activation (its \`_doActivateExtension\` log line), medians: activate() has returned after ${fmt(s.toActivateReturned)} ms (VS Code loads dist/extension.js and builds the extension context first); the chat lists the agents after ${fmt(s.toAgentsListed)} ms (loading and starting the services took ${fmt(s.servicesMs)} ms of it); our "activated" log line is stamped ${fmt(s.toActivatedLog)} ms after the start and "services started" ${fmt(s.toServicesLog)} ms after it (a log channel writes its first lines once VS Code has created it, so both stamps come late).`,
    '',
    `### ${main.label}`,
    '',
    table(main),
  ];
  for (const o of others) {
    const c = summary(o);
    lines.push('', `### ${o.label}, same run`, '', table(o), '', `Medians: activate() ${fmt(c.activateMs, 1)} ms (this build: ${fmt(s.activateMs, 1)} ms); script before the first agent ${kb(c.bytesBeforeAgent)} (this build: ${kb(s.bytesBeforeAgent)}); activation start -> chat lists the agents ${fmt(c.toAgentsListed)} ms (this build: ${fmt(s.toAgentsListed)} ms); -> "activated" log ${fmt(c.toActivatedLog)} ms (this build: ${fmt(s.toActivatedLog)} ms).`);
  }
  const lastRun = main.runs[main.runs.length - 1];
  lines.push(
    '',
    `Files of ours loaded in the last run (${lastRun.trigger}), in order: ${lastRun.files.map((f) => `\`${f.file}\` ${kb(f.bytes)}${f.beforeAgent ? '' : ' (for the agent)'}`).join(', ')}.`,
    '',
    '- activate() is the call alone (the probe wraps it); loading dist/extension.js is the "entry load" column. The "activated" log line is written by the log channel, which VS Code creates asynchronously: it lands later than activate() returns.',
    '- "before the first agent": every script of ours loaded until the chat lists the agents (and, after a reload, shows the restored tab) and "New session" is clicked; "at agent spawn": until the demo agent process is spawned.',
    '- What the chat needs at startup (dist/chunks/services-*.js and its static chunks): the session layer, diff review (it restores the changed-files list), the bridges, the chat host, and zod/mini (~42 KB minified, English messages only; classic zod was ~145 KB): the chat validates every webview message with it and the session layer validates settings. See test/tooling/extensionBundle.test.ts for the budgets the build is held to.',
    '',
  );
  return lines.join('\n');
}

function table(m) {
  const rows = [
    '| run | activation | activation event | activate() ms | entry load ms | script at activation | before the first agent (files) | at agent spawn | services started in | start -> activate() returned | start -> chat lists agents | start -> "activated" log | start -> "services started" log |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of m.runs) {
    rows.push(
      `| ${r.run} | ${r.trigger} | \`${r.activationEvent}\` | ${fmt(r.activateMs, 1)} | ${fmt(r.entryLoadMs)} | ${kb(r.bytesAtActivation)} | ${kb(r.bytesBeforeAgent)} (${r.filesBeforeAgent}) | ${kb(r.bytesAtAgentSpawn)} | ${Number.isFinite(r.servicesMs) ? `${r.servicesMs} ms` : '—'} | ${fmt(r.toActivateReturned)} ms | ${fmt(r.toAgentsListed)} ms | ${fmt(r.toActivatedLog)} ms | ${Number.isFinite(r.toServicesLog) ? `${fmt(r.toServicesLog)} ms` : '—'} |`,
    );
  }
  return rows.join('\n');
}

async function main() {
  const load = os.loadavg()[0].toFixed(1);
  mkdirSync(join(TEST_RESULTS, 'bench'), { recursive: true });
  let vsix = opts.vsix;
  if (!vsix) {
    say('packaging the VSIX…');
    vsix = join(TEST_RESULTS, 'bench', 'activation.vsix');
    const pack = await run(process.execPath, [join(REPO, 'scripts', 'package.mjs'), '--out', vsix], { cwd: REPO, quiet: true });
    if (pack.code !== 0) throw new Error(`packaging failed:\n${pack.output}`);
  }
  await ensureCodeServer();
  const measured = [await measure(vsix, 'This build')];
  if (opts.compare) measured.push(await measure(opts.compare, opts['compare-label']));
  const md = report(measured, { load });
  console.log(`\n${md}\n`);
  writeFileSync(join(TEST_RESULTS, 'bench', 'activation.json'), JSON.stringify(measured, null, 2));
  if (!opts['no-write']) {
    benchLib('results').writeResultsSection('activation', md);
  }
}

main()
  .then(() => cleanupAll())
  .then(() => process.exit(0))
  .catch(async (error) => {
    console.error(`[bench:activation] FAILED: ${error?.stack ?? error}`);
    await cleanupAll();
    process.exit(1);
  });
