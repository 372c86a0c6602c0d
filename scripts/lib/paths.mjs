// Shared locations for the test runners. Everything a run creates outside the repo lives in a temp dir
// that the runner removes; the test host (code-server) is cached once per machine, outside the clone.
import { homedir, tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PKG = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
export const EXTENSION_ID = `${PKG.publisher}.${PKG.name}`;

/** code-server 4.100.3 = VS Code 1.100.3, the last line that runs on Node 20. */
export const CODE_SERVER_VERSION = process.env.SWITCHBOARD_CODE_SERVER_VERSION || '4.100.3';
export const TEST_HOST_DIR = process.env.SWITCHBOARD_TEST_HOST_DIR || join(homedir(), '.cache', 'switchboard-test-host');

export const TEST_RESULTS = join(REPO, 'test-results');
export const FIXTURE_WORKSPACE = join(REPO, 'test', 'fixtures', 'workspace');
export const DEMO_AGENT = join(REPO, 'test', 'fixtures', 'agents', 'demo-agent.mjs');
/** Chromium for the benches and `npm run try`: Debian's full browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/**
 * Chromium for the e2e and host tiers: Debian's chromium-headless-shell, the same Blink without the full
 * browser around it (an e2e describe costs ~9 % less CPU than in `chromium --headless`).
 */
export const TEST_CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
export const TMP = tmpdir();
