/*
 * The few HTTP rules every registry request follows: only http(s) URLs, a timeout, and bodies read with a
 * size cap (a registry, icon or archive URL is input from the network, and nothing is buffered unbounded).
 */

/** `fetch` as the registry code uses it; injectable so tests and the host can supply their own. */
export type FetchLike = (url: string, init: { signal: AbortSignal; headers?: Record<string, string> }) => Promise<Response>;

export class RegistryHttpError extends Error {
  override readonly name = 'RegistryHttpError';
}

/** The connection broke while the body was arriving. */
export class InterruptedError extends RegistryHttpError {
  constructor(readonly what: string, readonly reason: string) {
    super(`the download of ${what} was interrupted: ${reason}`);
  }
}

/** Resolves `ref` against `base` (the registry's own URL, so a self-hosted list may use relative paths); http(s) only. */
export function resolveHttpUrl(ref: string, base: string | undefined, what: string): string {
  let url: URL;
  try {
    url = new URL(ref, base);
  } catch {
    throw new RegistryHttpError(`${what} "${ref}" is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RegistryHttpError(`${what} "${ref}" must be an http or https URL`);
  return url.toString();
}

/**
 * Starts a GET; rejects on a non-2xx status, when no answer (headers) comes within `timeoutMs`, or when
 * `signal` aborts. `signal` keeps governing the body, so cancelling stops a download midway.
 */
export async function httpGet(fetchFn: FetchLike, url: string, what: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<Response> {
  if (signal?.aborted) throw abortError();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const forward = () => controller.abort();
  signal?.addEventListener('abort', forward, { once: true });
  let response: Response;
  try {
    response = await fetchFn(url, { signal: controller.signal });
  } catch (error) {
    signal?.removeEventListener('abort', forward);
    if (signal?.aborted) throw abortError();
    if (controller.signal.aborted) throw new RegistryHttpError(`could not download ${what} from ${url}: no answer within ${Math.round(timeoutMs / 1000)} s`);
    throw new RegistryHttpError(`could not download ${what} from ${url}: ${networkReason(error)}`);
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new RegistryHttpError(`could not download ${what} from ${url}: the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  }
  return response;
}

/** Reads the whole body, refusing more than `maxBytes`. */
export async function readCapped(response: Response, maxBytes: number, what: string, signal?: AbortSignal): Promise<Buffer> {
  const declared = contentLength(response);
  if (declared !== undefined && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new RegistryHttpError(`${what} is too large (${formatBytes(declared)}; the limit is ${formatBytes(maxBytes)})`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of bodyChunks(response, what, signal)) {
    total += chunk.length;
    if (total > maxBytes) throw new RegistryHttpError(`${what} is too large (more than the limit of ${formatBytes(maxBytes)})`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The body as Buffers; a connection cut midway becomes one clear error (and aborting stops the reader). */
export async function* bodyChunks(response: Response, what: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const body = response.body;
  if (!body) return;
  const reader = body.getReader();
  // Aborting ends a read that waits on a stalled server (the fetch's own signal may not be this one).
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw abortError();
        throw new InterruptedError(what, networkReason(error));
      }
      if (signal?.aborted) throw abortError();
      if (step.done) return;
      yield Buffer.from(step.value.buffer, step.value.byteOffset, step.value.byteLength);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

export function contentLength(response: Response): number | undefined {
  const value = response.headers.get('content-length');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** The error a cancelled operation rejects with (callers tell it from failures with `isAbortError`). */
export function abortError(): Error {
  const error = new Error('cancelled');
  error.name = 'AbortError';
  return error;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function networkReason(error: unknown): string {
  // undici puts the useful part (ECONNREFUSED, ENOTFOUND, "other side closed") in `cause`.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return cause && cause !== message ? `${message} (${cause})` : message;
}
