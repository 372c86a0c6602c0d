import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import { once } from 'node:events';
import { bodyChunks, contentLength, formatBytes, httpGet, InterruptedError, RegistryHttpError, type FetchLike } from './http';

export interface DownloadOptions {
  readonly fetch: FetchLike;
  readonly maxBytes: number;
  /** Expected SHA-256 (hex); a mismatch deletes the file and rejects. */
  readonly sha256?: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Bytes received so far and the total when the server said it. */
  readonly onProgress?: (received: number, total: number | undefined) => void;
}

export class ChecksumMismatchError extends Error {
  override readonly name = 'ChecksumMismatchError';
}

/**
 * Streams `url` into `file` (created fresh), hashing and counting as it goes. On any failure — too large,
 * cut off, cancelled, wrong checksum — the partial file is deleted before the promise rejects.
 */
export async function downloadFile(url: string, file: string, what: string, options: DownloadOptions): Promise<{ bytes: number; sha256: string }> {
  const response = await httpGet(options.fetch, url, what, options.signal, options.timeoutMs ?? 60_000);
  const total = contentLength(response);
  const tooLarge = (size: string) =>
    new RegistryHttpError(`${what} is too large (${size}); Switchboard installs archives up to ${formatBytes(options.maxBytes)}`);
  if (total !== undefined && total > options.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(formatBytes(total));
  }
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  // Errors reach the awaits below; this keeps a late one (a write pending when the stream is destroyed) from crashing.
  out.on('error', () => undefined);
  const hash = createHash('sha256');
  let received = 0;
  try {
    await once(out, 'open');
    for await (const chunk of bodyChunks(response, what, options.signal)) {
      received += chunk.length;
      if (received > options.maxBytes) throw tooLarge(`more than ${formatBytes(options.maxBytes)}`);
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
      options.onProgress?.(received, total);
    }
    if (total !== undefined && received < total) {
      throw new RegistryHttpError(`the download of ${what} was interrupted after ${formatBytes(received)} of ${formatBytes(total)}`);
    }
    out.end();
    await once(out, 'finish');
    const digest = hash.digest('hex');
    if (options.sha256 && digest !== options.sha256.toLowerCase()) {
      throw new ChecksumMismatchError(`the checksum of ${what} does not match the registry (expected sha256 ${options.sha256.toLowerCase()}, got ${digest}); the download was deleted`);
    }
    return { bytes: received, sha256: digest };
  } catch (caught) {
    const error =
      caught instanceof InterruptedError
        ? new RegistryHttpError(`the download of ${what} was interrupted after ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''} (${caught.reason})`)
        : caught;
    out.destroy();
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    await fs.rm(file, { force: true });
    throw error;
  }
}
