#!/usr/bin/env node
// npm run try: build the extension and open it in a browser-based VS Code (code-server 4.100.3, installed
// into ~/.cache/switchboard-test-host when missing) on a temp copy of the sample workspace, with
// `switchboard.agents` pointing at the scripted demo agent (no API key needed). Prints the URL to open;
// Ctrl+C stops everything.
//
// Usage: node scripts/try.mjs [--port <n>] [--host <addr>] [--vsix] [--no-build] [--check]
//   --port   port to listen on (default 8080, or a free one if 8080 is taken)
//   --host   address to bind (default 127.0.0.1; use 0.0.0.0 to reach it from another machine — there
//            is no password, so only on a network you trust)
//   --vsix   install the packaged VSIX (npm run package) instead of running from the sources
//   --check  open the URL in headless Chromium, check the chat view renders, save
//            test-results/try.png and exit (a smoke test of this script)
// From the sources, `npm run watch` in another terminal + "Developer: Reload Window" picks up changes.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer } from 'node:net';
import { REPO, PKG, DEMO_AGENT, TEST_RESULTS } from './lib/paths.mjs';
import { run, onCleanup, cleanupAll, startTracked, cleanEnv, sleep } from './lib/proc.mjs';
import { ensureCodeServer, installVsix, CODE_SERVER_ENTRY, freePort, remoteUri, workbenchUrl } from './lib/code-server.mjs';
import { machineSettingsPath, makeRunDirs, removeDir } from './lib/workspace.mjs';

const { values: opts } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    vsix: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});
const say = (m) => console.log(`[try] ${m}`);

function portFree(port, host) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

function agentSettings() {
  const agents = {};
  // The scripted demo agent (test/fixtures/agents/demo-agent.mjs): answers without any account.
  agents['Demo Agent'] = { command: process.execPath, args: [DEMO_AGENT] };
  const fake = join(REPO, 'test', 'fixtures', 'agents', 'fake-agent.mjs');
  if (existsSync(fake)) agents['Fake Agent (test fixture)'] = { command: process.execPath, args: [fake] };
  if (!existsSync(DEMO_AGENT)) {
    say(`note: ${DEMO_AGENT} does not exist yet; "Demo Agent" will fail to start` + (existsSync(fake) ? ' — pick "Fake Agent (test fixture)" instead' : ''));
  }
  return {
    'switchboard.agents': agents,
    'switchboard.defaultAgent': existsSync(DEMO_AGENT) || !existsSync(fake) ? 'Demo Agent' : 'Fake Agent (test fixture)',
    'switchboard.trace': 'messages',
    'workbench.colorTheme': 'Default Dark Modern',
  };
}

async function main() {
  const t0 = Date.now();
  if (opts.vsix) {
    const pack = await run(process.execPath, [join(REPO, 'scripts', 'package.mjs')], { cwd: REPO, quiet: true });
    if (pack.code !== 0) {
      process.stdout.write(pack.output);
      throw new Error('npm run package failed');
    }
  } else if (!opts['no-build']) {
    const build = await run(process.execPath, ['esbuild.mjs'], { cwd: REPO, quiet: true });
    if (build.code !== 0) {
      process.stdout.write(build.output);
      throw new Error('the build failed');
    }
  }
  await ensureCodeServer();

  const dirs = makeRunDirs('switchboard-try', { settings: agentSettings() });
  onCleanup(() => removeDir(dirs.root));
  if (opts.vsix) await installVsix(join(REPO, `${PKG.name}-${PKG.version}.vsix`), dirs);

  let port = Number(opts.port ?? 8080);
  if (!(await portFree(port, opts.host))) {
    if (opts.port) throw new Error(`port ${port} on ${opts.host} is taken`);
    port = await freePort();
  }
  const child = startTracked(
    process.execPath,
    [
      CODE_SERVER_ENTRY,
      '--config', join(dirs.userDataDir, 'code-server.yaml'),
      '--user-data-dir', dirs.userDataDir,
      '--extensions-dir', dirs.extensionsDir,
      '--auth', 'none',
      '--bind-addr', `${opts.host}:${port}`,
      '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', '--ignore-last-opened',
      '--disable-workspace-trust',
      dirs.workspace,
    ],
    { env: cleanEnv() },
  );
  onCleanup(() => child.stop());
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    if (child.exitCode !== null || i > 300) throw new Error(`code-server did not start:\n${child.output.slice(-2000)}`);
    await sleep(200);
  }
  const server = { url: base, port, folder: dirs.workspace };
  const url = opts.vsix ? workbenchUrl(server) : workbenchUrl(server, { payload: [['extensionDevelopmentPath', remoteUri(server, REPO)]] });
  const shown = opts.host === '0.0.0.0' ? url.replace('127.0.0.1', '<this-machine>') : url;

  if (opts.check) return check(url);
  console.log(`
  Switchboard ${PKG.version} is running in VS Code (code-server) — ready in ${((Date.now() - t0) / 1000).toFixed(0)} s.

  Open this URL in your browser:

    ${shown}

  Then click the Switchboard icon in the activity bar and type a message.
  Sample workspace (a temp copy): ${dirs.workspace}
  Agent settings: ${machineSettingsPath(dirs.userDataDir)} (code-server's Remote settings)
  On a remote machine, forward the port first:  ssh -L ${port}:127.0.0.1:${port} <host>

  Ctrl+C to stop.
`);
  const { code } = await child.exited;
  say(`code-server exited (code ${code})`);
  return 1;
}

async function check(url) {
  const { launchChromium } = await import('./lib/browser.mjs');
  const browser = await launchChromium();
  onCleanup(() => browser.close().catch(() => {}));
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  const item = page
    .locator('.part.activitybar .action-item[role="tab"]')
    .filter({ has: page.locator('a.action-label[aria-label^="Switchboard"]') });
  await item.first().click({ timeout: 90_000 });
  const chat = page.frameLocator('iframe.webview[src*="extensionId=switchboard-dev.switchboard"]').first().frameLocator('#active-frame');
  await chat.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000);
  mkdirSync(TEST_RESULTS, { recursive: true });
  await page.screenshot({ path: join(TEST_RESULTS, 'try.png') });
  say(`check passed: the chat view renders (${join(TEST_RESULTS, 'try.png')})`);
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`[try] FAILED: ${err?.message ?? err}`);
} finally {
  await cleanupAll();
}
process.exit(code);
