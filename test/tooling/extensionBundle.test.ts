// The production build keeps its lazy boundaries (issue 13): activation loads only dist/extension.js and
// what it imports; the chat's startup (the services) leaves out the protocol engine, the agents' launchers,
// remote transports, the registry's install path and archive libraries, which load when an agent starts or
// the user acts; no module is in two files.
// Reads the split build's esbuild metafile (esbuild.mjs --metafile) and the sizes of the files it wrote.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const repo = path.resolve(__dirname, '../../..');

/** Bytes of script that activate() may load: the entry and the chunks it imports statically. */
const ACTIVATION_MAX_BYTES = 20_000;
/**
 * Bytes the services (what the chat view needs to show the agents and history) may load with their static
 * imports: all the script loaded before the first agent starts. 328 KB with what must be in force before
 * any agent is listed or any turn starts (the workspace-settings gate, the sensitive-file watch, the turn
 * baselines' watcher, the IDE tools' starter, Add to Chat's command and quick fix, the @ groups' terminal
 * recorder, checkpoints' recording); 295 KB once the registry's list and update check, the JSONC parser,
 * the login shell's environment with the process-tree code and the agents' terminals' processes load on
 * first use (USED_LATER); 303 KB with the subagents, the chat's ports and the restart banner; 308 KB with the
 * turn an agent starts itself, a subagent's permission in its nest and the chat handshake's log. 300 KB is the
 * goal, 310 KB the budget (the next candidates to load on first use: the elicitation broker, the diff commands);
 * zod's classic API would add ~105 KB.
 */
const SERVICES_MAX_BYTES = 310_000;

interface MetaOutput {
  entryPoint?: string;
  inputs: Record<string, { bytesInOutput: number }>;
  imports: { path: string; kind: string; external?: boolean }[];
}

describe('build: the extension bundle and its lazy chunks', function () {
  this.timeout(180_000);
  let stage: string;
  let outdir: string;
  let outputs: Record<string, MetaOutput>;

  before(() => {
    // Built the way scripts/package.mjs builds the VSIX: in a staging folder where the sources are links.
    stage = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bundle-test-'));
    fs.copyFileSync(path.join(repo, 'esbuild.mjs'), path.join(stage, 'esbuild.mjs'));
    for (const f of ['src', 'webview-ui', 'node_modules', 'tsconfig.json']) fs.symlinkSync(path.join(repo, f), path.join(stage, f));
    outdir = path.join(stage, 'dist');
    const metafile = path.join(stage, 'meta.json');
    const build = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--metafile', metafile], { cwd: stage, encoding: 'utf8' });
    assert.strictEqual(build.status, 0, `the production build failed:\n${build.stdout}\n${build.stderr}`);
    const meta = JSON.parse(fs.readFileSync(metafile, 'utf8')) as { outputs: Record<string, MetaOutput> };
    // Sources as paths in the repository (esbuild names them by their real paths, relative to the stage).
    const source = (p: string) => path.relative(repo, path.resolve(stage, p)).split(path.sep).join('/');
    outputs = Object.fromEntries(
      Object.entries(meta.outputs)
        .filter(([file]) => file.endsWith('.js'))
        .map(([file, o]) => [
          file,
          { ...o, entryPoint: o.entryPoint && source(o.entryPoint), inputs: Object.fromEntries(Object.entries(o.inputs).map(([input, v]) => [source(input), v])) },
        ]),
    );
  });

  after(() => fs.rmSync(stage, { recursive: true, force: true }));

  /** The output file and every output file it imports statically, transitively. */
  function loadedWith(file: string): string[] {
    const seen = new Set<string>();
    const visit = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const i of outputs[f]?.imports ?? []) if (!i.external && i.kind === 'import-statement') visit(i.path);
    };
    visit(file);
    return [...seen];
  }
  const bytes = (files: string[]) => files.reduce((n, f) => n + fs.statSync(path.join(outdir, f)).size, 0);
  const sources = (files: string[]) => files.flatMap((f) => Object.entries(outputs[f].inputs).filter(([, v]) => v.bytesInOutput > 0).map(([input]) => input));
  const outputOf = (entryPoint: string) => {
    const found = Object.keys(outputs).filter((f) => outputs[f].entryPoint === entryPoint);
    assert.strictEqual(found.length, 1, `one output file for ${entryPoint}, found: ${found.join(', ') || 'none'}`);
    return found[0];
  };
  const heavy = (inputs: string[], patterns: RegExp[]) => inputs.filter((input) => patterns.some((p) => p.test(input)));

  const ENGINE = [/^node_modules\/vscode-jsonrpc\//, /^src\/acp\/connection\/(clientConnection|rpcChannel)\.ts$/, /^src\/acp\/transport\/message(Reader|Writer)\.ts$/];
  const REMOTE = [/^node_modules\/ws\//, /^node_modules\/@agentclientprotocol\/sdk\//];
  const ARCHIVES = [/^node_modules\/(tar|yauzl|minizlib|minipass)\//];
  /** A local agent's process code and the launchers: loaded when the first agent starts (agentRuntime.ts). */
  const LAUNCH = [/^src\/host\/agents\/(localAgent|remote\/remoteAgent)\.ts$/, /^src\/agents\/(agentProcess|resolveCommand|stderrLines)\.ts$/];
  /** Installing from the registry, its list and the install flow: loaded when the user adds, updates or uninstalls an agent. */
  const INSTALL = [
    /^src\/agents\/registry\/(installer|extract|download|distribution|icon)\.ts$/,
    /^src\/host\/registry\/(registryInstalls|registryPicker|registryIcons|installFlow)\.ts$/,
  ];
  /**
   * Loaded when first used: the registry's list (an update check, the picker), the JSONC parser (a workspace's
   * mcp.json, restricted mode), the login shell's environment and process trees (an agent or install starts),
   * an agent's terminal processes (terminal/create), Add to Chat's entry points, the opening of a chip and the
   * `@` list's workspace files (the first `@` query).
   */
  const USED_LATER = [
    /^src\/agents\/registry\/(registryClient|registrySchema|http|version)\.ts$/,
    /^src\/host\/registry\/updateCheck\.ts$/,
    /^node_modules\/jsonc-parser\//,
    /^src\/agents\/(parseJsonc|shellEnvironment|processTree)\.ts$/,
    /^src\/host\/terminal\/(terminalProcess|terminalPty)\.ts$/,
    /^src\/host\/context\/(addToChat|openMention)\.ts$/,
    /^src\/chat\/workspaceMentions\.ts$/,
  ];
  /** Reading Zed's and JetBrains' agent lists: loaded when the import command runs. */
  const COMMANDS = [/^src\/agents\/importers\.ts$/];
  /** zod's classic API (`import { z } from 'zod'`) and its translations: zod/mini with English only is what the bundle may hold. */
  const ZOD_UNWANTED = [/^node_modules\/zod\/(v4\/classic|v3)\//, /^node_modules\/zod\/v4\/locales\/(?!en\.js$)/];

  it('activation loads dist/extension.js and a few KB with it: no zod, protocol, chat or session code', () => {
    assert.ok(outputs['extension.js'], 'dist/extension.js is an output');
    const files = loadedWith('extension.js');
    const size = bytes(files);
    assert.ok(size <= ACTIVATION_MAX_BYTES, `activation loads ${size} bytes (${files.join(', ')}), over the ${ACTIVATION_MAX_BYTES}-byte budget`);
    const inputs = sources(files);
    const leaked = heavy(inputs, [/^node_modules\//, /^src\/(acp|agents|chat|shared)\//, /^src\/host\/(session|agents|registry|diff|fs|terminal|permissions|auth)\//, ...ENGINE]);
    assert.deepStrictEqual(leaked, [], `activation loads modules that belong behind the lazy boundary: ${leaked.join(', ')}`);
  });

  it('the services (the chat at startup) load at most 310 KB, without the protocol engine, ws, the SDK or the archive libraries', () => {
    const services = outputOf('src/host/startup/services.ts');
    const dynamic = (outputs['extension.js'].imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
    // Activation's import and deactivate's (the agents' shutdown) name the same chunk.
    assert.deepStrictEqual([...new Set(dynamic)], [services], 'dist/extension.js imports the services lazily, and nothing else');
    const files = loadedWith(services);
    const size = bytes(files);
    assert.ok(size <= SERVICES_MAX_BYTES, `the services load ${size} bytes with their static imports, over the ${SERVICES_MAX_BYTES}-byte budget`);
    const leaked = heavy(sources(files), [...ENGINE, ...REMOTE, ...ARCHIVES]);
    assert.deepStrictEqual(leaked, [], `the services load modules that should wait for the first agent or install: ${leaked.join(', ')}`);
  });

  it('the services load without the launchers, the registry install path, the import command or what else waits for its first use: a static import would pull them back', () => {
    const inputs = sources(loadedWith(outputOf('src/host/startup/services.ts')));
    const leaked = heavy(inputs, [...LAUNCH, ...INSTALL, ...COMMANDS, ...USED_LATER]);
    assert.deepStrictEqual(leaked, [], `the services load modules that should wait for the first agent or the user's action: ${leaked.join(', ')}`);
  });

  it('the protocol engine, the launchers, the remote transports, the registry installs and the archive libraries are chunks of their own, loaded on first use', () => {
    const lazy = (entryPoint: string, patterns: RegExp[]) => {
      const file = outputOf(entryPoint);
      const inputs = sources(loadedWith(file));
      assert.ok(heavy(inputs, patterns).length > 0, `${file} (${entryPoint}) holds ${patterns.join(' or ')}`);
    };
    lazy('src/acp/connection/clientConnection.ts', [ENGINE[0]]);
    lazy('src/acp/transport/remote/webSocketTransport.ts', [REMOTE[0]]);
    lazy('src/acp/transport/remote/httpTransport.ts', [REMOTE[1]]);
    lazy('src/host/agents/localAgent.ts', LAUNCH);
    lazy('src/host/agents/remote/remoteAgent.ts', [LAUNCH[0]]);
    lazy('src/host/registry/registryInstalls.ts', [INSTALL[0]]);
    lazy('src/host/registry/registryPicker.ts', [INSTALL[1]]);
    lazy('src/agents/importers.ts', COMMANDS);
    const archives = Object.keys(outputs).filter((f) => heavy(sources([f]), ARCHIVES).length > 0);
    assert.ok(archives.length > 0 && archives.every((f) => outputs[f].entryPoint?.startsWith('node_modules/')), `the archive libraries are in dynamically imported chunks: ${archives.join(', ')}`);
  });

  it('zod is zod/mini with its English messages: no classic API, no other locale', () => {
    const all = sources(Object.keys(outputs));
    assert.deepStrictEqual(heavy(all, ZOD_UNWANTED), [], 'src/shared/zod.ts and src/agents/zod.ts (zod/mini) are the only way to zod');
    const services = sources(loadedWith(outputOf('src/host/startup/services.ts')));
    // Both wrappers set the English messages at load; esbuild.mjs must not drop them as side-effect free.
    for (const input of ['node_modules/zod/v4/locales/en.js', 'src/shared/zod.ts', 'src/agents/zod.ts']) {
      assert.ok(services.includes(input), `the services load ${input}`);
    }
  });

  it('the MCP SDK is not in the split build: the IDE tools server and its stdio forwarder are bundles of their own', () => {
    const sdk = heavy(sources(Object.keys(outputs)), [/^node_modules\/@modelcontextprotocol\//]);
    assert.deepStrictEqual(sdk, [], 'src/host/ideTools/ideTools.ts imports dist/ideToolsServer.js by its path');
    for (const bundle of ['ideToolsServer.js', 'ideToolsStdio.js']) {
      const text = fs.readFileSync(path.join(outdir, bundle), 'utf8');
      assert.ok(!/^\s*(import|export)\s[^(]/m.test(text), `${bundle} is CommonJS`);
      assert.ok(!text.includes('require("vscode")'), `${bundle} runs without VS Code`);
    }
  });

  it('every module is in exactly one output file (one class for instanceof, one copy of each singleton)', () => {
    const where = new Map<string, string[]>();
    for (const [file, output] of Object.entries(outputs)) {
      for (const [input, v] of Object.entries(output.inputs)) if (v.bytesInOutput > 0) where.set(input, [...(where.get(input) ?? []), file]);
    }
    const twice = [...where].filter(([, files]) => files.length > 1).map(([input, files]) => `${input} in ${files.join(' and ')}`);
    assert.deepStrictEqual(twice, []);
  });

  it('the output is CommonJS, as VS Code 1.95 loads an extension', () => {
    const text = fs.readFileSync(path.join(outdir, 'extension.js'), 'utf8');
    assert.ok(!/^\s*(import|export)\s/m.test(text), 'no ES module syntax left in dist/extension.js');
    assert.match(text, /module\.exports/);
    for (const file of Object.keys(outputs)) {
      const chunk = fs.readFileSync(path.join(outdir, file), 'utf8');
      assert.ok(!/^\s*(import|export)\s[^(]/m.test(chunk), `${file} still has ES module syntax`);
    }
  });
});
