import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isBridgeError } from '../../../src/acp/bridgeErrors';
import {
  FileConfinement,
  decideAccess,
  isInsideRoot,
  resolveRealPath,
  type AccessQuestion,
  type FileAccessPolicy,
  type PathFlavor,
} from '../../../src/host/fs/fileConfinement';

const posix: PathFlavor = { api: path.posix, caseInsensitive: false };
const win: PathFlavor = { api: path.win32, caseInsensitive: true };

describe('host: file confinement (pure path logic)', () => {
  it('inside, equal, and prefix tricks', () => {
    assert.ok(isInsideRoot('/work/app', '/work/app', posix));
    assert.ok(isInsideRoot('/work/app', '/work/app/src/x.ts', posix));
    assert.ok(!isInsideRoot('/work/app', '/work/app2', posix));
    assert.ok(!isInsideRoot('/work/app', '/work/app2/x', posix));
    assert.ok(!isInsideRoot('/work/app', '/work', posix));
    assert.ok(isInsideRoot('/work/app', '/work/app/..foo', posix), 'a name starting with .. is a child');
    assert.ok(!isInsideRoot('/work/app', path.posix.resolve('/work/app/src/../../etc/passwd'), posix));
  });

  it('Windows: case-insensitive, other drives outside', () => {
    assert.ok(isInsideRoot('C:\\Work\\App', 'c:\\work\\app\\x.ts', win));
    assert.ok(!isInsideRoot('C:\\Work\\App', 'C:\\Work\\App2\\x', win));
    assert.ok(!isInsideRoot('C:\\Work\\App', 'D:\\Work\\App\\x', win));
  });

  it('decisions by policy (sensitive files such as .git are the fs bridge\'s check, not this one)', () => {
    const roots = ['/w/app'];
    const d = (realPath: string, op: 'read' | 'write', policy: FileAccessPolicy) => decideAccess({ realPath, realRoots: roots, op, policy, flavor: posix }).kind;
    assert.strictEqual(d('/w/app/a', 'write', 'deny'), 'allow');
    assert.strictEqual(d('/w/other/a', 'read', 'ask'), 'ask');
    assert.strictEqual(d('/w/other/a', 'read', 'allow'), 'allow');
    assert.strictEqual(d('/w/other/a', 'read', 'deny'), 'deny');
    assert.strictEqual(d('/w/app/.git/config', 'read', 'ask'), 'allow');
    assert.strictEqual(d('/w/other/.git/x', 'write', 'deny'), 'deny');
  });
});

describe('host: file confinement (real files and symlinks)', () => {
  let tmp: string;
  let root: string;
  let outside: string;
  let questions: AccessQuestion[];
  let answer: boolean | Error;
  let policy: FileAccessPolicy;

  /** Session 's' in `root` (and `extra`): the scope its requests come with. */
  const scope = (extra: string[] = []) => ({ sessionId: 's', roots: { cwd: root, additionalDirectories: extra } });
  const make = () =>
    new FileConfinement({
      getPolicy: () => policy,
      askUser: async (q) => {
        questions.push(q);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });

  async function rejects(p: Promise<unknown>, code: number, reason: string): Promise<void> {
    await assert.rejects(p, (e: unknown) => isBridgeError(e) && e.code === code && e.data.reason === reason);
  }

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-conf-')));
    root = path.join(tmp, 'app');
    outside = path.join(tmp, 'app2');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 's');
    questions = [];
    answer = false;
    policy = 'ask';
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('allows files inside without asking, including ones that do not exist yet', async () => {
    const c = make();
    assert.strictEqual(await c.authorize(scope(), path.join(root, 'src', 'new', 'deep.ts'), 'write'), path.join(root, 'src', 'new', 'deep.ts'));
    assert.strictEqual(questions.length, 0);
  });

  it('rejects relative paths with -32602', async () => {
    await rejects(make().authorize(scope(), 'src/a.ts', 'read'), -32602, 'relative_path');
    await rejects(make().authorize(scope(), '../app2/secret.txt', 'read'), -32602, 'relative_path');
  });

  it('.. traversal out of the root asks, and a refusal is -32602 access_denied', async () => {
    const c = make();
    await rejects(c.authorize(scope(), `${root}/src/../../app2/secret.txt`, 'read'), -32602, 'access_denied');
    assert.strictEqual(questions.length, 1);
    assert.strictEqual(questions[0].realPath, path.join(outside, 'secret.txt'));
    assert.strictEqual(questions[0].reason, 'outside_roots');
  });

  it('the sibling folder with a common prefix (app vs app2) is outside', async () => {
    answer = true;
    await make().authorize(scope(), path.join(outside, 'secret.txt'), 'read');
    assert.strictEqual(questions.length, 1);
  });

  it('a symlink inside the root pointing outside is resolved before the check', async () => {
    fs.symlinkSync(outside, path.join(root, 'link'));
    await rejects(make().authorize(scope(), path.join(root, 'link', 'secret.txt'), 'write'), -32602, 'access_denied');
    assert.strictEqual(questions[0].realPath, path.join(outside, 'secret.txt'));
  });

  it('a dangling symlink pointing outside is followed (writing through it would create its target)', async () => {
    fs.symlinkSync(path.join(outside, 'new.txt'), path.join(root, 'dangling'));
    assert.strictEqual(await resolveRealPath(path.join(root, 'dangling')), path.join(outside, 'new.txt'));
    await rejects(make().authorize(scope(), path.join(root, 'dangling'), 'write'), -32602, 'access_denied');
    assert.strictEqual(questions.length, 1);
  });

  it('a root given through a symlink still contains its files', async () => {
    const alias = path.join(tmp, 'alias');
    fs.symlinkSync(root, alias);
    const c = new FileConfinement({ getPolicy: () => 'deny', askUser: async () => true });
    assert.strictEqual(await c.authorize({ sessionId: 's', roots: { cwd: alias } }, path.join(root, 'src', 'a.ts'), 'read'), path.join(root, 'src', 'a.ts'));
  });

  it('additionalDirectories count as inside', async () => {
    policy = 'deny';
    assert.ok(await make().authorize(scope([outside]), path.join(outside, 'secret.txt'), 'read'));
  });

  it('policy allow skips the question; deny refuses without asking', async () => {
    policy = 'allow';
    await make().authorize(scope(), path.join(outside, 'secret.txt'), 'write');
    policy = 'deny';
    await rejects(make().authorize(scope(), path.join(outside, 'secret.txt'), 'read'), -32602, 'access_denied');
    assert.strictEqual(questions.length, 0);
  });

  it('a yes is remembered per session, file and operation; concurrent asks share one question', async () => {
    answer = true;
    const c = make();
    const p = path.join(outside, 'secret.txt');
    await Promise.all([c.authorize(scope(), p, 'read'), c.authorize(scope(), p, 'read')]);
    await c.authorize(scope(), p, 'read');
    assert.strictEqual(questions.length, 1);
    await c.authorize(scope(), p, 'write');
    assert.strictEqual(questions.length, 2);
    c.forgetSession('s');
    await c.authorize(scope(), p, 'read');
    assert.strictEqual(questions.length, 3);
  });

  it('an askUser that throws counts as no', async () => {
    answer = new Error('chat gone');
    await rejects(make().authorize(scope(), path.join(outside, 'secret.txt'), 'read'), -32602, 'access_denied');
  });
});
