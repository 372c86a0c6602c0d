import { createReadStream, createWriteStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type * as yauzl from 'yauzl';
import { isInside } from './agentFolders';
import { abortError, formatBytes } from './http';

/*
 * Unpacks an agent's archive (tar.gz, tar or zip) with well-kept libraries (node-tar, yauzl) and refuses,
 * before anything is written, any entry that could land outside the folder: absolute paths, `..`,
 * symbolic links that point out, devices. Sizes are capped (an archive can unpack to far more than it
 * weighs). The caller extracts into an empty staging folder and deletes it on any error.
 */

export interface ExtractLimits {
  /** Total unpacked bytes. */
  readonly maxBytes: number;
  readonly maxEntries: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = { maxBytes: 2 * 1024 ** 3, maxEntries: 100_000 };

/** The archive would write outside its folder, or holds something Switchboard does not unpack. */
export class UnsafeArchiveError extends Error {
  override readonly name = 'UnsafeArchiveError';
}

export type ArchiveFormat = 'tar.gz' | 'tar' | 'zip';

/** The format by the file's first bytes (URLs often have no useful extension). */
export async function detectArchiveFormat(file: string): Promise<ArchiveFormat | undefined> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(262);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
    if (bytesRead >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
    return undefined;
  } finally {
    await handle.close();
  }
}

export async function extractArchive(file: string, dest: string, what: string, limits: ExtractLimits, signal?: AbortSignal): Promise<void> {
  const format = await detectArchiveFormat(file);
  if (!format) throw new UnsafeArchiveError(`${what} is not a .tar.gz, .tar or .zip archive (Switchboard unpacks only those)`);
  await fs.mkdir(dest, { recursive: true });
  const root = await fs.realpath(dest);
  if (format === 'zip') await extractZip(file, root, what, limits, signal);
  else await extractTar(file, root, what, limits, signal);
  await checkLinksStayInside(root, root, what);
}

/**
 * An entry name as a list of path segments inside the folder; throws for names that leave it. Backslashes
 * count as separators (they are on Windows).
 */
export function safeSegments(name: string, what: string, field = 'entry'): string[] {
  const unified = name.replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[a-zA-Z]:/.test(unified)) {
    throw new UnsafeArchiveError(`${what} has an ${field} with an absolute path (${JSON.stringify(name)}); nothing was installed`);
  }
  const segments = unified.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new UnsafeArchiveError(`${what} has an ${field} that leaves its folder (${JSON.stringify(name)}); nothing was installed`);
  return segments;
}

/** A symbolic link's target (relative to the link's folder) must stay inside the folder. */
function checkLinkTarget(entryName: string, target: string, what: string): void {
  const unified = target.replace(/\\/g, '/');
  const fromRoot = path.posix.normalize(path.posix.join(path.posix.dirname(entryName.replace(/\\/g, '/')), unified));
  if (unified.startsWith('/') || /^[a-zA-Z]:/.test(unified) || fromRoot === '..' || fromRoot.startsWith('../')) {
    throw new UnsafeArchiveError(`${what} has a symbolic link ${JSON.stringify(entryName)} that points outside its folder (${JSON.stringify(target)}); nothing was installed`);
  }
}

function checkTotals(count: number, bytes: number, limits: ExtractLimits, what: string): void {
  if (count > limits.maxEntries) throw new UnsafeArchiveError(`${what} has more than ${limits.maxEntries} entries; nothing was installed`);
  if (bytes > limits.maxBytes) {
    throw new UnsafeArchiveError(`${what} unpacks to more than ${formatBytes(limits.maxBytes)}, more than Switchboard installs; nothing was installed`);
  }
}

// ---- tar -----------------------------------------------------------------------------------------

const TAR_FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);

async function extractTar(file: string, root: string, what: string, limits: ExtractLimits, signal?: AbortSignal): Promise<void> {
  // Loaded on the first install, not with the registry (node-tar is most of its code).
  const tar = await import('tar');
  // First pass: read every header and refuse the archive before a single file is written.
  const problems: Error[] = [];
  let count = 0;
  let bytes = 0;
  await tar.t({
    file,
    strict: true,
    onReadEntry: (entry) => {
      if (problems.length) return;
      try {
        count++;
        bytes += entry.size ?? 0;
        checkTotals(count, bytes, limits, what);
        if (!TAR_FILE_TYPES.has(entry.type)) {
          throw new UnsafeArchiveError(`${what} has an entry of type ${entry.type} (${JSON.stringify(entry.path)}); only files, folders and links are installed`);
        }
        safeSegments(entry.path, what);
        if (entry.type === 'SymbolicLink') checkLinkTarget(entry.path, entry.linkpath ?? '', what);
        if (entry.type === 'Link') safeSegments(entry.linkpath ?? '', what, 'hard link');
      } catch (error) {
        problems.push(error instanceof Error ? error : new Error(String(error)));
      }
    },
  }).catch((error: unknown) => {
    throw new UnsafeArchiveError(`${what} could not be read as a tar archive (${error instanceof Error ? error.message : String(error)})`);
  });
  if (problems[0]) throw problems[0];
  if (signal?.aborted) throw abortError();
  // Second pass: node-tar itself also refuses `..`, absolute paths and writing through symbolic links.
  const unpack = new tar.Unpack({ cwd: root, strict: true, preservePaths: false, preserveOwner: false, unlink: false });
  await runStream(createReadStream(file), unpack, what, signal, (error) => unpack.abort(error));
}

// ---- zip -----------------------------------------------------------------------------------------

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

async function extractZip(file: string, root: string, what: string, limits: ExtractLimits, signal?: AbortSignal): Promise<void> {
  const { open } = await import('yauzl');
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, opened) => (error ? reject(zipError(error, what)) : resolve(opened))),
  );
  try {
    checkTotals(zip.entryCount, 0, limits, what);
    // Check every name and size first, so a bad entry anywhere refuses the archive before anything is written.
    const entries = await readZipEntries(zip, what);
    let bytes = 0;
    for (const entry of entries) {
      bytes += entry.uncompressedSize;
      checkTotals(0, bytes, limits, what);
      safeSegments(entry.fileName, what);
    }
    for (const entry of entries) {
      if (signal?.aborted) throw abortError();
      await writeZipEntry(zip, entry, root, what);
    }
  } finally {
    zip.close();
  }
}

function readZipEntries(zip: yauzl.ZipFile, what: string): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error: Error) => reject(zipError(error, what)));
    zip.readEntry();
  });
}

async function writeZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, root: string, what: string): Promise<void> {
  const segments = safeSegments(entry.fileName, what);
  if (segments.length === 0) return;
  const target = path.join(root, ...segments);
  const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
  const type = mode & S_IFMT;
  if (type === S_IFDIR || entry.fileName.endsWith('/')) {
    await mkdirInside(root, target, what);
    return;
  }
  await mkdirInside(root, path.dirname(target), what);
  const stream = await openZipEntry(zip, entry, what);
  if (type === S_IFLNK) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > 4096) throw new UnsafeArchiveError(`${what} has a symbolic link ${JSON.stringify(entry.fileName)} with an overlong target; nothing was installed`);
      chunks.push(chunk);
    }
    const linkTarget = Buffer.concat(chunks).toString('utf8');
    checkLinkTarget(entry.fileName, linkTarget, what);
    await fs.symlink(linkTarget, target);
    return;
  }
  // 'wx': never replace (or write through) something an earlier entry created, such as a link.
  const permissions = mode & 0o777 ? (mode & 0o777) | 0o600 : 0o644;
  await pipeline(stream, createWriteStream(target, { flags: 'wx', mode: permissions }));
}

function openZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, what: string): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(zipError(error, what)) : resolve(stream))));
}

/** Creates `dir` (inside `root`), refusing when an existing link makes it resolve outside. */
async function mkdirInside(root: string, dir: string, what: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const real = await fs.realpath(dir);
  if (!isInside(root, real)) throw new UnsafeArchiveError(`${what} writes through a symbolic link to outside its folder; nothing was installed`);
}

/** yauzl's own checks (absolute paths, `..`, bad sizes) reworded for the user. */
function zipError(error: Error, what: string): Error {
  if (/absolute path|invalid relative path/i.test(error.message)) {
    return new UnsafeArchiveError(`${what} has an entry that leaves its folder (${error.message}); nothing was installed`);
  }
  return new UnsafeArchiveError(`${what} could not be read as a zip archive (${error.message})`);
}

// ---- both ----------------------------------------------------------------------------------------

/** After unpacking, every link must resolve inside the folder (catches chains of links the per-entry check cannot see). */
async function checkLinksStayInside(root: string, dir: string, what: string): Promise<void> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      const real = await fs.realpath(full).catch(() => undefined);
      // A dangling link (its target lexically inside, checked per entry) is harmless.
      if (real !== undefined && !isInside(root, real)) {
        throw new UnsafeArchiveError(`${what} has a symbolic link ${JSON.stringify(path.relative(root, full))} that points outside its folder; nothing was installed`);
      }
    } else if (entry.isDirectory()) {
      await checkLinksStayInside(root, full, what);
    }
  }
}

function runStream(
  input: Readable,
  output: NodeJS.WritableStream & { on(event: 'close', cb: () => void): unknown },
  what: string,
  signal: AbortSignal | undefined,
  abort: (error: Error) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => {
      const error = abortError();
      input.destroy();
      abort(error);
      finish(error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    input.on('error', (error) => finish(error));
    (output as NodeJS.EventEmitter).on('error', (error: Error) => finish(new UnsafeArchiveError(`${what} could not be unpacked safely (${error.message}); nothing was installed`)));
    output.on('close', () => finish());
    input.pipe(output);
  });
}
