// terminal/* against real processes and real VS Code terminals (no agent involved).
import * as assert from 'assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TerminalBridge, type TerminalOutputEvent, type TerminalSnapshot } from '../../../src/host/terminal/terminalBridge';
import { waitFor } from '../index';
import { bridgeError, makeSandbox, type Sandbox } from './helpers';

const S = 'sess-1';
const node = process.execPath;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('bridges: terminals', () => {
  let box: Sandbox;
  let bridge: TerminalBridge;
  let raw: Map<string, string>;
  let terminals: vscode.Terminal[];

  beforeEach(() => {
    box = makeSandbox();
    raw = new Map();
    terminals = [];
    bridge = new TerminalBridge({
      confinement: box.confinement,
      maxTerminalsPerSession: 4,
      // The real createTerminal, plus a tap on what the pty writes (what the user sees).
      createTerminal: (o) => {
        const pty = o.pty;
        pty.onDidWrite((d) => raw.set(o.name, (raw.get(o.name) ?? '') + d));
        const t = vscode.window.createTerminal(o);
        terminals.push(t);
        return t;
      },
    });
  });
  afterEach(() => {
    bridge.dispose();
    box.dispose();
  });

  const create = (command: string, args: string[] = [], extra: Record<string, unknown> = {}) =>
    bridge.create({ sessionId: S, command, args, ...extra }, { roots: box.context.roots, name: `t ${command} ${args.length}` });

  it('runs node -e: output, exit code, colours in the terminal and stripped for the agent and chat', async () => {
    const chunks: TerminalOutputEvent[] = [];
    const sub = bridge.onDidOutput((e) => chunks.push(e));
    const script = 'console.log("\\x1b[31mred\\x1b[0m", process.cwd(), process.env.SB_Y); process.exit(7)';
    const { terminalId } = await bridge.create(
      { sessionId: S, command: node, args: ['-e', script], env: [{ name: 'SB_Y', value: 'yes' }] },
      { roots: box.context.roots, name: 'Run script' },
    );
    assert.deepStrictEqual(await bridge.waitForExit({ sessionId: S, terminalId }), { exitCode: 7, signal: null });
    const out = bridge.output({ sessionId: S, terminalId });
    assert.strictEqual(out.output, `red ${box.root} yes\n`);
    assert.strictEqual(out.truncated, false);
    assert.deepStrictEqual(out.exitStatus, { exitCode: 7, signal: null });
    sub.dispose();
    assert.strictEqual(chunks.map((c) => c.text).join(''), out.output);
    assert.ok(chunks.every((c) => c.terminalId === terminalId && c.sessionId === S));
    assert.ok(terminals.some((t) => t.name === 'Run script'));
    const shown = await waitFor(() => (raw.get('Run script')?.includes('exit code 7') ? raw.get('Run script') : undefined), 'terminal text');
    assert.ok(shown.includes('\x1b[31mred\x1b[0m'), 'colours reach the terminal');
    assert.ok(shown.includes(`yes\r\n`), '\\n becomes \\r\\n for the pty');
  });

  it('a command that does not exist: exit 127 and the message in the output', async () => {
    const { terminalId } = await create('no-such-command-sb', ['--x']);
    assert.deepStrictEqual(await bridge.waitForExit({ sessionId: S, terminalId }), { exitCode: 127, signal: null });
    assert.match(bridge.output({ sessionId: S, terminalId }).output, /no-such-command-sb: command not found/);
  });

  it('kill ends the whole process tree (child and grandchild)', async () => {
    const script = `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(()=>{},1000)'], { stdio: 'ignore' });
      console.log('pids ' + process.pid + ' ' + c.pid); setInterval(() => {}, 1000);`;
    const { terminalId } = await create(node, ['-e', script]);
    const line = await waitFor(() => /pids (\d+) (\d+)/.exec(bridge.output({ sessionId: S, terminalId }).output), 'pids');
    const [child, grandchild] = [Number(line[1]), Number(line[2])];
    assert.ok(alive(child) && alive(grandchild));
    bridge.kill({ sessionId: S, terminalId });
    const status = await bridge.waitForExit({ sessionId: S, terminalId });
    assert.strictEqual(status.signal, 'SIGTERM');
    await waitFor(() => !alive(child) && !alive(grandchild), 'both processes gone');
    // Killed but not released: still readable.
    assert.ok(bridge.output({ sessionId: S, terminalId }).exitStatus);
  });

  it('outputByteLimit truncates from the start at a character boundary (4-byte emoji)', async () => {
    // 1 + 4*1000 = 4001 bytes; limit 3997 drops 4 bytes: "x" and 3 bytes of the first emoji, so the start
    // moves past that emoji's last byte to the next one.
    const { terminalId } = await bridge.create({
      sessionId: S,
      command: node,
      args: ['-e', 'process.stdout.write("x" + "😀".repeat(1000))'],
      outputByteLimit: 3997,
    }, { roots: box.context.roots });
    await bridge.waitForExit({ sessionId: S, terminalId });
    const out = bridge.output({ sessionId: S, terminalId });
    assert.strictEqual(out.truncated, true);
    assert.strictEqual(out.output, '😀'.repeat(999));
  });

  it('release frees the id (-32602 afterwards) and keeps the output for the chat', async () => {
    const released: TerminalSnapshot[] = [];
    const sub = bridge.onDidRelease((e) => released.push(e));
    const { terminalId } = await create(node, ['-e', 'console.log("done")']);
    await bridge.waitForExit({ sessionId: S, terminalId });
    bridge.release({ sessionId: S, terminalId });
    sub.dispose();
    assert.strictEqual(released[0]?.output, 'done\n');
    assert.strictEqual(bridge.getOutput(terminalId)?.output, 'done\n');
    assert.throws(() => bridge.output({ sessionId: S, terminalId }), bridgeError(-32602, 'unknown_terminal'));
    await assert.rejects(bridge.waitForExit({ sessionId: S, terminalId }), bridgeError(-32602, 'unknown_terminal'));
    assert.throws(() => bridge.kill({ sessionId: S, terminalId: 'term_nope' }), bridgeError(-32602, 'unknown_terminal'));
    assert.throws(() => bridge.output({ sessionId: 'other', terminalId }), bridgeError(-32602));
  });

  it('release of a running command kills it', async () => {
    const { terminalId } = await create(node, ['-e', 'console.log("up"); setInterval(() => {}, 1000)']);
    await waitFor(() => bridge.output({ sessionId: S, terminalId }).output.includes('up'), 'started');
    bridge.release({ sessionId: S, terminalId });
    await waitFor(() => bridge.getOutput(terminalId)?.exitStatus, 'exit after release');
  });

  it('the user closing the terminal kills its process', async () => {
    const { terminalId } = await create(node, ['-e', 'console.log("up"); setInterval(() => {}, 1000)']);
    await waitFor(() => bridge.output({ sessionId: S, terminalId }).output.includes('up'), 'started');
    terminals[terminals.length - 1].dispose();
    const status = await bridge.waitForExit({ sessionId: S, terminalId });
    assert.strictEqual(status.signal, 'SIGTERM');
  });

  it('a terminal closed before VS Code opened its pty still kills the process', async () => {
    const { terminalId } = await create(node, ['-e', 'setInterval(() => {}, 1000)']);
    terminals[terminals.length - 1].dispose();
    const status = await bridge.waitForExit({ sessionId: S, terminalId });
    assert.strictEqual(status.signal, 'SIGTERM');
  });

  it('cwd outside the session folders asks; a relative cwd is -32602; a missing one too', async () => {
    box.answer = false;
    await assert.rejects(create(node, ['-v'], { cwd: box.outside }), bridgeError(-32602, 'access_denied'));
    assert.strictEqual(box.questions.length, 1);
    await assert.rejects(create(node, ['-v'], { cwd: 'sub' }), bridgeError(-32602, 'relative_path'));
    await assert.rejects(create(node, ['-v'], { cwd: path.join(box.root, 'missing') }), bridgeError(-32602, 'bad_cwd'));
  });

  it('caps terminals per session; disposeSession kills them all', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await create(node, ['-e', 'setInterval(() => {}, 1000)'])).terminalId);
    await assert.rejects(create(node, ['-v']), bridgeError(-32602, 'terminal_limit'));
    const waits = ids.map((terminalId) => bridge.waitForExit({ sessionId: S, terminalId }));
    bridge.disposeSession(S);
    const statuses = await Promise.all(waits);
    assert.ok(statuses.every((s) => s.signal === 'SIGTERM'));
    assert.throws(() => bridge.output({ sessionId: S, terminalId: ids[0] }), bridgeError(-32602));
  });

  it('a fast 20 MB producer with binary bytes: bounded output, nothing breaks', async () => {
    const script = 'const b = Buffer.alloc(65536); for (let i = 0; i < b.length; i++) b[i] = i % 256; let n = 320; (function w() { while (n-- > 0) { if (!process.stdout.write(b)) return process.stdout.once("drain", w); } })();';
    const { terminalId } = await bridge.create({ sessionId: S, command: node, args: ['-e', script], outputByteLimit: 100_000 }, { roots: box.context.roots });
    const status = await bridge.waitForExit({ sessionId: S, terminalId });
    assert.strictEqual(status.exitCode, 0);
    const out = bridge.output({ sessionId: S, terminalId });
    assert.strictEqual(out.truncated, true);
    assert.ok(Buffer.byteLength(out.output) <= 100_000);
  });
});
