import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { CommandNotFoundError } from '../../../src/agents/agentStartErrors';
import { buildSpawnInvocation, escapeCmdArgument, getPathFromEnv, resolveCommand } from '../../../src/agents/resolveCommand';
import { tempDir, writeExecutable } from './helpers';

describe('resolveCommand on POSIX', () => {
  const posixIt = process.platform === 'win32' ? it.skip : it;
  let root: string;
  let binA: string;
  let binB: string;

  beforeEach(() => {
    root = tempDir('resolve');
    binA = path.join(root, 'a');
    binB = path.join(root, 'b');
    writeExecutable(path.join(binB, 'agent'), '#!/bin/sh\n');
    writeExecutable(path.join(binA, 'notexec'), '#!/bin/sh\n', 0o644);
    writeExecutable(path.join(binB, 'notexec'), '#!/bin/sh\n');
    fs.mkdirSync(path.join(binA, 'dironly'), { recursive: true });
    writeExecutable(path.join(root, 'project', 'bin', 'local-agent'), '#!/bin/sh\n');
  });

  posixIt('finds a bare name in the first PATH folder that has it as an executable file', () => {
    const resolved = resolveCommand('agent', `/nonexistent:${binA}:${binB}`, 'linux');
    assert.deepStrictEqual(resolved, { command: 'agent', executable: path.join(binB, 'agent'), needsWindowsShell: false });
    // Skips a non-executable file and a directory of the same name, like a shell does.
    assert.strictEqual(resolveCommand('notexec', `${binA}:${binB}`, 'linux').executable, path.join(binB, 'notexec'));
    assert.throws(() => resolveCommand('dironly', binA, 'linux'), CommandNotFoundError);
  });

  posixIt('never searches the current folder for bare names (empty and relative PATH entries are ignored)', () => {
    const cwd = path.join(root, 'project', 'bin');
    assert.throws(
      () => resolveCommand('local-agent', `::.:bin:${binA}`, 'linux', { cwd }),
      (error: unknown) => error instanceof CommandNotFoundError && error.searched.length === 1 && error.searched[0] === binA,
    );
  });

  posixIt('checks absolute paths and resolves relative paths against cwd', () => {
    const absolute = path.join(binB, 'agent');
    assert.strictEqual(resolveCommand(absolute, undefined, 'linux').executable, absolute);
    const resolved = resolveCommand('./bin/local-agent', '', 'linux', { cwd: path.join(root, 'project') });
    assert.strictEqual(resolved.executable, path.join(root, 'project', 'bin', 'local-agent'));
    assert.throws(
      () => resolveCommand('./bin/missing', '', 'linux', { cwd: path.join(root, 'project'), agentName: 'Mine' }),
      (error: unknown) =>
        error instanceof CommandNotFoundError &&
        !error.searchedPath &&
        error.message === `Cannot start Mine: "${path.join(root, 'project', 'bin', 'missing')}" does not exist or is not an executable file. Check "command" in the "switchboard.agents" setting.`,
    );
  });

  it('a missing command says where it looked and how to install it', () => {
    try {
      resolveCommand('qwen', '/x/bin:/y/bin', 'linux', { agentName: 'Qwen Code', installHint: 'Install Qwen Code with: npm install -g @qwen-code/qwen-code@latest' });
      assert.fail('expected CommandNotFoundError');
    } catch (error) {
      assert.ok(error instanceof CommandNotFoundError);
      assert.strictEqual(error.name, 'CommandNotFoundError');
      assert.strictEqual(error.command, 'qwen');
      assert.deepStrictEqual(error.searched, ['/x/bin', '/y/bin']);
      assert.strictEqual(error.installHint, 'Install Qwen Code with: npm install -g @qwen-code/qwen-code@latest');
      assert.strictEqual(
        error.message,
        'Cannot start Qwen Code: the command "qwen" was not found on PATH (2 folders searched). Install Qwen Code with: npm install -g @qwen-code/qwen-code@latest. ' +
          'If it is installed somewhere else, set "command" to its absolute path in the "switchboard.agents" setting.',
      );
    }
  });
});

describe('resolveCommand on Windows (simulated file system)', () => {
  const files = new Set([
    'C:\\Program Files\\nodejs\\npx',
    'C:\\Program Files\\nodejs\\npx.cmd',
    'C:\\Program Files\\nodejs\\node.exe',
    'C:\\Users\\me\\AppData\\Roaming\\npm\\gemini',
    'C:\\Users\\me\\AppData\\Roaming\\npm\\gemini.cmd',
    'C:\\tools\\both.exe',
    'C:\\tools\\both.cmd',
    'C:\\tools\\legacy.BAT',
    'D:\\work\\agents\\mine.cmd',
  ]);
  // Windows file names are case-insensitive.
  const lowerFiles = new Set([...files].map((file) => file.toLowerCase()));
  const isExecutableFile = (candidate: string) => lowerFiles.has(candidate.toLowerCase());
  const PATH = 'C:\\Windows\\system32;"C:\\Program Files\\nodejs";C:\\Users\\me\\AppData\\Roaming\\npm;C:\\tools';

  it('picks the npm .cmd shim, never the extensionless shell script beside it', () => {
    assert.deepStrictEqual(resolveCommand('npx', PATH, 'win32', { isExecutableFile }), {
      command: 'npx',
      executable: 'C:\\Program Files\\nodejs\\npx.cmd',
      needsWindowsShell: true,
    });
    assert.strictEqual(resolveCommand('gemini', PATH, 'win32', { isExecutableFile }).executable, 'C:\\Users\\me\\AppData\\Roaming\\npm\\gemini.cmd');
  });

  it('follows PATHEXT order (.EXE before .CMD) and runs .exe files directly', () => {
    assert.deepStrictEqual(resolveCommand('both', PATH, 'win32', { isExecutableFile }), { command: 'both', executable: 'C:\\tools\\both.exe', needsWindowsShell: false });
    assert.strictEqual(resolveCommand('both', PATH, 'win32', { isExecutableFile, pathExt: '.CMD;.EXE' }).executable, 'C:\\tools\\both.cmd');
  });

  it('accepts an explicit extension in any case, and absolute or drive paths', () => {
    assert.deepStrictEqual(resolveCommand('node.EXE', PATH, 'win32', { isExecutableFile }), {
      command: 'node.EXE',
      executable: 'C:\\Program Files\\nodejs\\node.EXE',
      needsWindowsShell: false,
    });
    assert.strictEqual(resolveCommand('gemini.CMD', PATH, 'win32', { isExecutableFile }).needsWindowsShell, true);
    const bat = resolveCommand('C:\\tools\\legacy', undefined, 'win32', { isExecutableFile: (f) => f.toLowerCase() === 'c:\\tools\\legacy.bat' });
    assert.strictEqual(bat.needsWindowsShell, true);
    assert.strictEqual(resolveCommand('D:/work/agents/mine.cmd', undefined, 'win32', { isExecutableFile }).executable, 'D:\\work\\agents\\mine.cmd');
  });

  it('throws CommandNotFoundError with the searched folders (quotes removed)', () => {
    assert.throws(
      () => resolveCommand('opencode', PATH, 'win32', { isExecutableFile }),
      (error: unknown) => error instanceof CommandNotFoundError && error.searched[1] === 'C:\\Program Files\\nodejs' && error.searched.length === 4,
    );
  });

  it('getPathFromEnv finds Path case-insensitively on Windows only', () => {
    assert.strictEqual(getPathFromEnv({ Path: 'C:\\x' }, 'win32'), 'C:\\x');
    assert.strictEqual(getPathFromEnv({ Path: 'C:\\x' }, 'linux'), undefined);
    assert.strictEqual(getPathFromEnv({ PATH: '/usr/bin' }, 'linux'), '/usr/bin');
  });
});

describe('buildSpawnInvocation', () => {
  it('runs ordinary executables directly with the arguments untouched', () => {
    assert.deepStrictEqual(buildSpawnInvocation({ command: 'gemini', executable: '/usr/bin/gemini', needsWindowsShell: false }, ['--acp', 'a b']), {
      file: '/usr/bin/gemini',
      args: ['--acp', 'a b'],
      windowsVerbatimArguments: false,
    });
  });

  it('runs .cmd shims through cmd.exe /d /s /c with every metacharacter escaped', () => {
    const invocation = buildSpawnInvocation(
      { command: 'npx', executable: 'C:\\Program Files\\nodejs\\npx.cmd', needsWindowsShell: true },
      ['-y', '@agentclientprotocol/claude-agent-acp'],
      'C:\\Windows\\system32\\cmd.exe',
    );
    assert.deepStrictEqual(invocation, {
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"@agentclientprotocol/claude-agent-acp^""'],
      windowsVerbatimArguments: true,
    });
  });

  it('escapes arguments twice for node_modules/.bin shims, which re-parse %*', () => {
    const invocation = buildSpawnInvocation({ command: 'x', executable: 'D:\\p\\node_modules\\.bin\\agent.cmd', needsWindowsShell: true }, ['a&b'], 'cmd.exe');
    assert.strictEqual(invocation.args[3], '"D:\\p\\node_modules\\.bin\\agent.cmd ^^^"a^^^&b^^^""');
  });

  it('escapeCmdArgument: quotes, backslashes before quotes and at the end, cmd metacharacters', () => {
    assert.strictEqual(escapeCmdArgument('plain'), '^"plain^"');
    assert.strictEqual(escapeCmdArgument('say "hi"'), '^"say^ \\^"hi\\^"^"');
    assert.strictEqual(escapeCmdArgument('C:\\dir\\'), '^"C:\\dir\\\\^"');
    assert.strictEqual(escapeCmdArgument('a\\"b'), '^"a\\\\\\^"b^"');
    assert.strictEqual(escapeCmdArgument('%PATH%|x>y<z&w'), '^"^%PATH^%^|x^>y^<z^&w^"');
    assert.strictEqual(escapeCmdArgument(''), '^"^"');
  });
});
