// Mocha's spec reporter, followed by the run's slowest test files (wall time from their first suite's start
// to their last suite's end, so before/after hooks such as opening a workbench count) and slowest tests, so
// a CI log says where the time went. A failure's message is also printed as it happens (mocha prints them
// only at the end), so a run stopped by the tier's guard still says why its tests failed. The host and e2e
// tiers use it.
const Mocha = require('mocha');

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_END, EVENT_TEST_FAIL, EVENT_HOOK_END, EVENT_RUN_END } = Mocha.Runner.constants;
const SHOWN = 12;
/** Lines of a failure's message and stack printed as it happens. */
const FAIL_LINES = 40;

class TimedSpecReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    /** file -> { start, end } in ms since the epoch */
    const files = new Map();
    const tests = [];
    const hooks = [];
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file && !files.has(suite.file)) files.set(suite.file, { start: Date.now(), end: Date.now() });
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      const f = suite.file && files.get(suite.file);
      if (f) f.end = Date.now();
    });
    runner.on(EVENT_TEST_END, (test) => {
      if (typeof test.duration === 'number') tests.push({ title: test.fullTitle(), ms: test.duration });
    });
    runner.on(EVENT_HOOK_END, (hook) => {
      if (typeof hook.duration === 'number') hooks.push({ title: hook.fullTitle(), ms: hook.duration });
    });
    runner.on(EVENT_TEST_FAIL, (test, err) => {
      const text = `${err && err.stack ? err.stack : String(err)}`.split('\n').slice(0, FAIL_LINES);
      Mocha.reporters.Base.consoleLog(`      failed at ${new Date().toISOString()}: ${test.fullTitle()}\n${text.map((l) => `        ${l}`).join('\n')}`);
    });
    // After the spec reporter's own epilogue (registered first, in the constructor of Base).
    runner.once(EVENT_RUN_END, () => {
      const log = Mocha.reporters.Base.consoleLog;
      const secs = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;
      const byFile = [...files].map(([file, f]) => ({ file: shortPath(file), ms: f.end - f.start })).sort((a, b) => b.ms - a.ms);
      log(`  slowest files (of ${byFile.length}; hooks included):`);
      for (const f of byFile.slice(0, SHOWN)) log(`  ${secs(f.ms)}  ${f.file}`);
      log(`  slowest tests (of ${tests.length}):`);
      for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, SHOWN)) log(`  ${secs(t.ms)}  ${t.title}`);
      const sum = (list) => list.reduce((n, x) => n + x.ms, 0);
      log(`  time in tests ${secs(sum(tests)).trim()}, in hooks ${secs(sum(hooks)).trim()}; slowest hooks (of ${hooks.length}):`);
      for (const h of hooks.sort((a, b) => b.ms - a.ms).slice(0, SHOWN)) log(`  ${secs(h.ms)}  ${h.title}`);
      log('');
    });
  }
}

/** The path from `out/` on (the compiled tests' folder), or the whole path. */
function shortPath(file) {
  const i = file.lastIndexOf('/out/');
  return i >= 0 ? file.slice(i + 5) : file;
}

module.exports = TimedSpecReporter;
