// Preloaded into code-server's processes by bench/activation.bench.mjs (NODE_OPTIONS=--require): in the
// extension host it records, as JSON lines in $SWITCHBOARD_PROBE_OUT,
//   - every script of the extension Node loads (path under $SWITCHBOARD_PROBE_EXTENSION, bytes, when, ms),
//   - how long the extension's activate() takes (the call, and its promise if it returns one),
//   - the first child process whose command line contains $SWITCHBOARD_PROBE_AGENT (the first agent starting).
// It only observes: the extension's code and VS Code's are not changed. Other processes load it and do nothing.
/* eslint-disable @typescript-eslint/no-require-imports */
/* global require, process */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const childProcess = require('node:child_process');
const { performance } = require('node:perf_hooks');

const out = process.env.SWITCHBOARD_PROBE_OUT;
const extension = process.env.SWITCHBOARD_PROBE_EXTENSION;
const agent = process.env.SWITCHBOARD_PROBE_AGENT;

function record(event) {
  fs.appendFileSync(out, `${JSON.stringify({ pid: process.pid, at: Date.now(), ...event })}\n`);
}

function wrapActivate(exports, file) {
  const activate = exports.activate;
  if (typeof activate !== 'function') return exports;
  const wrapped = function (...args) {
    const start = performance.now();
    const startedAt = Date.now();
    const result = activate.apply(this, args);
    record({ kind: 'activate', file, startedAt, ms: performance.now() - start, promise: !!(result && typeof result.then === 'function') });
    if (result && typeof result.then === 'function') {
      result.then(
        () => record({ kind: 'activateResolved', file, ms: performance.now() - start }),
        () => record({ kind: 'activateRejected', file, ms: performance.now() - start }),
      );
    }
    return result;
  };
  // An esbuild CommonJS bundle's exports are getters: hand VS Code a copy with the wrapped activate.
  return { ...exports, activate: wrapped };
}

if (out && extension) {
  /** Only the extension host that runs the extension reports agents starting. */
  let loaded = false;
  const load = Module._extensions['.js'];
  Module._extensions['.js'] = function (module, filename) {
    if (!filename.startsWith(extension)) return load.call(this, module, filename);
    const startedAt = Date.now();
    const start = performance.now();
    try {
      return load.call(this, module, filename);
    } finally {
      // ms includes what this script required while it ran (none for a lazily loading entry).
      loaded = true;
      record({ kind: 'load', file: path.relative(extension, filename), bytes: fs.statSync(filename).size, startedAt, ms: performance.now() - start });
      if (filename.endsWith(`${path.sep}dist${path.sep}extension.js`)) module.exports = wrapActivate(module.exports, filename);
    }
  };
  if (agent) {
    let seen = false;
    for (const name of ['spawn', 'execFile', 'fork']) {
      const original = childProcess[name];
      childProcess[name] = function (...args) {
        if (loaded && !seen && JSON.stringify(args.slice(0, 2)).includes(agent)) {
          seen = true;
          record({ kind: 'agentSpawn', how: name });
        }
        return original.apply(this, args);
      };
    }
  }
}
