// The shadow repository against real git and a real folder: snapshots respect .gitignore and the size
// limit, keep exact bytes whatever .gitattributes say, and report additions, edits and deletions.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MAX_SNAPSHOT_FILE_BYTES, ShadowRepo } from '../../../src/host/diff/baseline/shadowGit';

describe('diff review: shadow git repository', function () {
  this.timeout(60_000);
  let root: string;
  let work: string;
  let repo: ShadowRepo;

  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-shadow-'));
    work = path.join(root, 'work');
    fs.mkdirSync(path.join(work, 'src'), { recursive: true });
    fs.mkdirSync(path.join(work, 'node_modules', 'x'), { recursive: true });
    fs.writeFileSync(path.join(work, 'src', 'a.txt'), 'line 1\r\nline 2\n');
    fs.writeFileSync(path.join(work, 'gone.txt'), 'will be deleted');
    fs.writeFileSync(path.join(work, '.gitignore'), 'dist/\n');
    fs.writeFileSync(path.join(work, '.gitattributes'), '* text=auto eol=lf\n');
    fs.writeFileSync(path.join(work, 'node_modules', 'x', 'i.js'), 'x');
    repo = await ShadowRepo.open(path.join(root, 'shadow'), work);
  });

  afterEach(() => {
    repo.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('lists what changed between two snapshots and reads the exact bytes of the first', async () => {
    const base = await repo.snapshot();
    fs.writeFileSync(path.join(work, 'src', 'a.txt'), 'changed\n');
    fs.writeFileSync(path.join(work, 'new file ü.txt'), 'new');
    fs.rmSync(path.join(work, 'gone.txt'));
    fs.mkdirSync(path.join(work, 'dist'));
    fs.writeFileSync(path.join(work, 'dist', 'out.js'), 'ignored');
    fs.writeFileSync(path.join(work, 'node_modules', 'x', 'i.js'), 'changed too');
    const end = await repo.snapshot();
    const changes = await repo.diff(base.tree, end.tree);
    assert.deepStrictEqual(
      changes.sort((a, b) => a.path.localeCompare(b.path)),
      [
        { status: 'D', path: 'gone.txt' },
        { status: 'A', path: 'new file ü.txt' },
        { status: 'M', path: 'src/a.txt' },
      ],
    );
    assert.strictEqual((await repo.read(base.tree, 'src/a.txt'))?.toString('utf8'), 'line 1\r\nline 2\n');
    assert.strictEqual(await repo.read(base.tree, 'new file ü.txt'), null);
    assert.strictEqual(await repo.isIgnored('dist/out.js'), true);
    assert.strictEqual(await repo.isIgnored('node_modules/x/i.js'), true);
    assert.strictEqual(await repo.isIgnored('src/a.txt'), false);
  });

  it('reads many files of a snapshot at once, binary, missing and odd names included', async () => {
    fs.writeFileSync(path.join(work, 'bin.dat'), Buffer.from([0, 1, 2, 10, 13, 255]));
    fs.writeFileSync(path.join(work, 'line\nbreak.txt'), 'odd name');
    fs.writeFileSync(path.join(work, 'empty.txt'), '');
    const base = await repo.snapshot();
    const got = await repo.readMany(base.tree, ['src/a.txt', 'bin.dat', 'missing.txt', 'line\nbreak.txt', 'empty.txt', 'src']);
    assert.strictEqual(got.get('src/a.txt')?.toString('utf8'), 'line 1\r\nline 2\n');
    assert.deepStrictEqual(got.get('bin.dat'), Buffer.from([0, 1, 2, 10, 13, 255]));
    assert.strictEqual(got.get('missing.txt'), null);
    assert.strictEqual(got.get('line\nbreak.txt')?.toString('utf8'), 'odd name');
    assert.strictEqual(got.get('empty.txt')?.length, 0);
    assert.strictEqual(got.get('src'), null, 'a folder is no file');
  });

  it('leaves out files above the size limit, and a second repository object sees the same history', async () => {
    fs.writeFileSync(path.join(work, 'big.bin'), Buffer.alloc(MAX_SNAPSHOT_FILE_BYTES + 1, 1));
    const base = await repo.snapshot();
    assert.deepStrictEqual(base.tooLarge, ['big.bin']);
    assert.strictEqual(await repo.read(base.tree, 'big.bin'), null);
    const again = await ShadowRepo.open(path.join(root, 'shadow'), work);
    try {
      assert.strictEqual((await again.snapshot()).tree, base.tree);
    } finally {
      again.dispose();
    }
  });

  it('refuses a work tree that is not a folder', async () => {
    await assert.rejects(ShadowRepo.open(path.join(root, 'other'), path.join(work, 'gone.txt')));
    await assert.rejects(ShadowRepo.open(path.join(root, 'other'), path.join(root, 'missing')));
  });

  it('starts a git process only where a turn needs one: nothing changed, the same tree, a kept tree', async () => {
    // A `git` first on PATH that logs each command and runs the real one.
    const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    const shim = path.join(root, 'bin');
    const log = path.join(root, 'git.log');
    fs.mkdirSync(shim);
    fs.writeFileSync(path.join(shim, 'git'), `#!/bin/sh\necho "$5" >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `${shim}${path.delimiter}${savedPath}`;
    const commands = (): string[] => {
      const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
      fs.rmSync(log, { force: true });
      return lines;
    };
    const other = await ShadowRepo.open(path.join(root, 'shadow'), work);
    try {
      const first = await repo.snapshot();
      commands();
      const same = await repo.snapshot();
      assert.strictEqual(same.tree, first.tree);
      assert.deepStrictEqual(commands(), ['ls-files'], 'nothing changed: no write-tree');
      assert.deepStrictEqual(await repo.diff(first.tree, same.tree), []);
      assert.deepStrictEqual(commands(), [], 'a tree against itself: no diff-tree');

      fs.writeFileSync(path.join(work, 'src', 'a.txt'), 'edited\n');
      const edited = await repo.snapshot();
      assert.notStrictEqual(edited.tree, first.tree);
      assert.deepStrictEqual(commands(), ['ls-files', 'update-index', 'write-tree']);
      assert.strictEqual((await repo.read(first.tree, 'src/a.txt'))?.toString('utf8'), 'line 1\r\nline 2\n');
      assert.deepStrictEqual(commands(), ['cat-file'], 'one file: one process');

      // Another object on the same repository (another window) writes the index: this one's tree follows.
      fs.writeFileSync(path.join(work, 'added.txt'), 'by the other window');
      const theirs = await other.snapshot();
      assert.strictEqual((await repo.snapshot()).tree, theirs.tree);
      assert.notStrictEqual(theirs.tree, edited.tree);
      commands();

      await repo.keep([first.tree, edited.tree, first.tree]);
      assert.deepStrictEqual(commands(), ['update-ref']);
      await repo.keep([edited.tree, first.tree]);
      assert.deepStrictEqual(commands(), [], 'kept already');
      await repo.keep([theirs.tree]);
      assert.deepStrictEqual(commands(), ['update-ref']);
      const refs = execFileSync(realGit, ['--git-dir', path.join(root, 'shadow'), 'for-each-ref', '--format=%(objectname)', 'refs/switchboard/checkpoints/']).toString().split('\n').filter(Boolean);
      assert.deepStrictEqual(refs.sort(), [first.tree, edited.tree, theirs.tree].sort());
    } finally {
      process.env.PATH = savedPath;
      other.dispose();
    }
  });
});
