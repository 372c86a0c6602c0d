import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { downloadFile, ChecksumMismatchError } from '../../../../src/agents/registry/download';
import type { FetchLike } from '../../../../src/agents/registry/http';
import { sha256 } from '../../../fixtures/registry/archives';
import { startRegistryServer, type RegistryServer } from '../../../fixtures/registry/registryServer';

describe('registry downloads', () => {
  let server: RegistryServer;
  let dir: string;
  const body = Buffer.from('x'.repeat(100_000));

  beforeEach(async () => {
    server = await startRegistryServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-registry-download-'));
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const file = () => path.join(dir, 'archive');

  it('streams to a file, reporting progress and checking the sha256', async () => {
    server.set('/a', { kind: 'body', body });
    const seen: number[] = [];
    const result = await downloadFile(`${server.base}/a`, file(), 'the archive', { fetch, maxBytes: 1e6, sha256: sha256(body).toUpperCase(), onProgress: (r) => seen.push(r) });
    assert.strictEqual(result.bytes, body.length);
    assert.ok(fs.readFileSync(file()).equals(body));
    assert.strictEqual(seen.at(-1), body.length);
  });

  it('a checksum mismatch refuses and deletes the download', async () => {
    server.set('/a', { kind: 'body', body });
    await assert.rejects(
      downloadFile(`${server.base}/a`, file(), 'the archive', { fetch, maxBytes: 1e6, sha256: 'b'.repeat(64) }),
      (e: Error) => e instanceof ChecksumMismatchError && /does not match the registry \(expected sha256 b{64}, got [0-9a-f]{64}\); the download was deleted/.test(e.message),
    );
    assert.ok(!fs.existsSync(file()));
  });

  it('a download cut halfway fails and leaves no file', async () => {
    server.set('/a', { kind: 'truncate', body, sendBytes: 40_000 });
    await assert.rejects(downloadFile(`${server.base}/a`, file(), 'the archive', { fetch, maxBytes: 1e6 }), /the download of the archive was interrupted/);
    assert.ok(!fs.existsSync(file()));
  });

  it('a huge archive is refused by its declared size before it downloads, and by its real size when undeclared', async () => {
    server.set('/huge', { kind: 'huge', declaredBytes: 5 * 1024 ** 3 });
    await assert.rejects(
      downloadFile(`${server.base}/huge`, file(), 'the archive of X', { fetch, maxBytes: 512 * 1024 ** 2 }),
      /the archive of X is too large \(5\.0 GiB\); Switchboard installs archives up to 512 MiB/,
    );
    assert.ok(!fs.existsSync(file()));
    // A server that does not say the size (chunked): counted as it arrives.
    const chunked: FetchLike = async () => new Response(new Blob([body]).stream());
    await assert.rejects(downloadFile('http://127.0.0.1/x', file(), 'the archive', { fetch: chunked, maxBytes: 50_000 }), /too large \(more than 49 KiB\)/);
    assert.ok(!fs.existsSync(file()));
  });

  it('cancelling mid-download rejects with AbortError and leaves no file', async () => {
    server.set('/slow', { kind: 'stall', body, sendBytes: 10_000 });
    const controller = new AbortController();
    let started!: () => void;
    const firstBytes = new Promise<void>((resolve) => (started = resolve));
    const download = downloadFile(`${server.base}/slow`, file(), 'the archive', { fetch, maxBytes: 1e6, signal: controller.signal, onProgress: () => started() });
    await firstBytes;
    assert.ok(fs.existsSync(file()), 'the partial file exists while downloading');
    controller.abort();
    await assert.rejects(download, (e: Error) => e.name === 'AbortError');
    assert.ok(!fs.existsSync(file()));
  });

  it('an HTTP error status names the status', async () => {
    await assert.rejects(downloadFile(`${server.base}/missing`, file(), 'the archive', { fetch, maxBytes: 1e6 }), /the server answered 404/);
  });
});
