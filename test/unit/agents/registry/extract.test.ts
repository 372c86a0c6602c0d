import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { extractArchive, UnsafeArchiveError, type ExtractLimits } from '../../../../src/agents/registry/extract';
import { agentTarGz, agentZip, rawTar, tarGz, zip } from '../../../fixtures/registry/archives';

const LIMITS: ExtractLimits = { maxBytes: 10 * 1024 * 1024, maxEntries: 1000 };

describe('registry archive extraction', () => {
  let dir: string;
  let dest: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-registry-extract-'));
    dest = path.join(dir, 'install', 'agent');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, data: Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, data);
    return file;
  };
  /** What sits beside the install folders and archives: proves nothing landed outside them (links are not followed). */
  const outside = () => [
    ...fs.readdirSync(dir).filter((name) => name !== 'install' && !name.startsWith('archive')),
    ...fs.readdirSync(path.join(dir, 'install')).filter((name) => !name.startsWith('agent')),
  ];
  let attempt = 0;
  const refuses = async (file: string, pattern: RegExp) => {
    // A fresh folder each time, as the installer's staging folders are.
    await assert.rejects(extractArchive(file, `${dest}-${attempt++}`, 'the archive', LIMITS), (e: Error) => e instanceof UnsafeArchiveError && pattern.test(e.message));
    assert.deepStrictEqual(outside(), [], 'nothing written outside the install folder');
  };

  it('unpacks a tar.gz and a zip with folders, files and modes', async () => {
    await extractArchive(write('archive.tgz', agentTarGz()), dest, 'the archive', LIMITS);
    assert.ok(fs.readFileSync(path.join(dest, 'lib', 'fake-agent.mjs'), 'utf8').includes('Scripted fake ACP agent'));
    assert.match(fs.readFileSync(path.join(dest, 'bin', 'agent'), 'utf8'), /^#!\/bin\/sh/);
    const zipDest = path.join(dir, 'install', 'zipped');
    await extractArchive(write('archive.zip', await agentZip()), zipDest, 'the archive', LIMITS);
    assert.ok(fs.existsSync(path.join(zipDest, 'lib', 'wire.mjs')));
    assert.ok(fs.statSync(path.join(zipDest, 'bin', 'agent')).isFile());
    const plain = path.join(dir, 'install', 'plain');
    await extractArchive(write('archive.tar', rawTar([{ name: 'a.txt', data: 'A' }])), plain, 'the archive', LIMITS);
    assert.strictEqual(fs.readFileSync(path.join(plain, 'a.txt'), 'utf8'), 'A');
  });

  it('keeps links that stay inside', async () => {
    await extractArchive(
      write('archive.tgz', tarGz([{ name: 'real/cmd', data: 'x' }, { name: 'cmd', type: 'symlink', link: 'real/cmd' }, { name: 'real/same', type: 'symlink', link: '../real/cmd' }])),
      dest,
      'the archive',
      LIMITS,
    );
    assert.strictEqual(fs.readFileSync(path.join(dest, 'cmd'), 'utf8'), 'x');
    const zipDest = path.join(dir, 'install', 'z');
    await extractArchive(write('archive.zip', await zip([{ name: 'real/cmd', data: 'y' }, { name: 'cmd', symlinkTo: 'real/cmd' }])), zipDest, 'the archive', LIMITS);
    assert.strictEqual(fs.readFileSync(path.join(zipDest, 'cmd'), 'utf8'), 'y');
  });

  it('refuses tar entries with an absolute path or ".."', async () => {
    const victim = path.join(dir, 'victim.txt');
    await refuses(write('archive1.tgz', tarGz([{ name: 'ok.txt', data: 'fine' }, { name: victim, data: 'pwned' }])), /has an entry with an absolute path .*nothing was installed/);
    await refuses(write('archive2.tgz', tarGz([{ name: 'ok.txt', data: 'fine' }, { name: '../../victim.txt', data: 'pwned' }])), /has an entry that leaves its folder \("\.\.\/\.\.\/victim\.txt"\)/);
    await refuses(write('archive3.tgz', tarGz([{ name: 'a\\..\\..\\victim.txt', data: 'pwned' }])), /leaves its folder/);
    assert.ok(!fs.existsSync(path.join(`${dest}-0`, 'ok.txt')), 'refused before writing anything');
  });

  it('refuses tar links pointing out, hard links out, and devices or fifos', async () => {
    await refuses(write('archive1.tgz', tarGz([{ name: 'link', type: 'symlink', link: '/etc' }, { name: 'link/passwd', data: 'x' }])), /symbolic link "link" that points outside its folder \("\/etc"\)/);
    await refuses(write('archive2.tgz', tarGz([{ name: 'sub/link', type: 'symlink', link: '../../..' }])), /points outside its folder/);
    await refuses(write('archive3.tgz', tarGz([{ name: 'hard', type: 'hardlink', link: '../victim.txt' }])), /hard link that leaves its folder/);
    await refuses(write('archive4.tgz', tarGz([{ name: 'pipe', type: 'fifo' }])), /entry of type FIFO/);
  });

  it('refuses zip entries with an absolute path, "..", or a link pointing out', async () => {
    await refuses(write('archive1.zip', await zip([{ name: 'ok.txt', data: 'fine' }, { name: 'xx/victim.txt', realName: '../victim.txt', data: 'pwned' }])), /leaves its folder/);
    await refuses(write('archive2.zip', await zip([{ name: 'xtmp/victim.txt', realName: '/tmp/victim.txt', data: 'pwned' }])), /leaves its folder|absolute path/);
    await refuses(write('archive3.zip', await zip([{ name: 'link', symlinkTo: '../../..' }])), /symbolic link "link" that points outside its folder/);
    // A link written first and a file "through" it: the link is refused before the file is written.
    await refuses(write('archive4.zip', await zip([{ name: 'out', symlinkTo: dir }, { name: 'out/victim.txt', data: 'pwned' }])), /points outside its folder/);
  });

  it('refuses a chain of links that only escapes when followed', async () => {
    // Each target is inside on paper ("c/d" -> ".." is the folder itself, "b" -> "c/d" too, "x" -> "b/.." reads
    // as "."), but following "b" first makes "x" the folder's parent.
    const chain = [{ name: 'c/', type: 'dir' as const }, { name: 'c/d', type: 'symlink' as const, link: '..' }, { name: 'b', type: 'symlink' as const, link: 'c/d' }, { name: 'x', type: 'symlink' as const, link: 'b/..' }];
    // node-tar itself refuses to create a link through a link; the final check would catch it otherwise.
    await refuses(write('archive.tgz', tarGz(chain)), /symbolic link "x" that points outside its folder|could not be unpacked safely \(TAR_SYMLINK_ERROR/);
    await refuses(write('archive.zip', await zip([{ name: 'c', dir: true }, { name: 'c/d', symlinkTo: '..' }, { name: 'b', symlinkTo: 'c/d' }, { name: 'x', symlinkTo: 'b/..' }])), /symbolic link "x" that points outside/);
  });

  it('caps the unpacked size and the number of entries', async () => {
    const big = { name: 'big.bin', data: Buffer.alloc(2 * 1024 * 1024) };
    const small: ExtractLimits = { maxBytes: 3 * 1024 * 1024, maxEntries: 3 };
    await assert.rejects(extractArchive(write('archive2.tgz', tarGz([big, { ...big, name: 'big2.bin' }])), dest, 'the archive', small), /unpacks to more than 3\.0 MiB, more than Switchboard installs/);
    await assert.rejects(extractArchive(write('archive3.zip', await zip([big, { ...big, name: 'big2.bin' }])), dest, 'the archive', small), /unpacks to more than 3\.0 MiB/);
    const many = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: '' }));
    await assert.rejects(extractArchive(write('archive4.tgz', tarGz(many)), dest, 'the archive', small), /more than 3 entries/);
    await assert.rejects(extractArchive(write('archive5.zip', await zip(many)), dest, 'the archive', small), /more than 3 entries/);
  });

  it('refuses what is not a supported archive', async () => {
    await assert.rejects(extractArchive(write('archive.bin', Buffer.from('MZ not an archive')), dest, 'the archive', LIMITS), /is not a \.tar\.gz, \.tar or \.zip archive/);
    const corrupt = agentTarGz().subarray(0, 200);
    await assert.rejects(extractArchive(write('archive.tgz', corrupt), dest, 'the archive', LIMITS), /could not be read as a tar archive/);
  });
});
