#!/usr/bin/env node
// Installs the test host (code-server, see code-server.mjs) into ~/.cache/switchboard-test-host when it
// is missing; prints where it is. Used by .ci/run; the runners also call ensureCodeServer() themselves.
import { ensureCodeServer } from './code-server.mjs';

try {
  const t0 = Date.now();
  const entry = await ensureCodeServer();
  console.log(`[test-host] ${entry} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
} catch (err) {
  console.error(`[test-host] FAILED: ${err?.message ?? err}`);
  process.exit(1);
}
