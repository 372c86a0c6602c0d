import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as z from '../zod';
import { httpGet, isAbortError, readCapped, resolveHttpUrl, type FetchLike } from './http';
import { parseRegistryText, type Registry } from './registrySchema';

/*
 * Fetches the registry list and keeps the last good copy on disk, so the list still opens offline (saying
 * so) and a broken list on the server never replaces a good one.
 */

export interface RegistryLoad {
  readonly url: string;
  readonly registry: Registry;
  /** Agents left out because their entries are malformed (one message each). */
  readonly problems: readonly string[];
  readonly source: 'network' | 'cache';
  /** When this copy was fetched (ms since the epoch). */
  readonly fetchedAt: number;
  /** Why the network copy could not be used (only with source 'cache'). */
  readonly networkError?: string;
}

/** Neither the network nor the cache gave a usable registry. */
export class RegistryUnavailableError extends Error {
  override readonly name = 'RegistryUnavailableError';
}

export interface RegistryClientOptions {
  readonly fetch: FetchLike;
  /** The file the last good copy is kept in. */
  readonly cacheFile: string;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  readonly now?: () => number;
}

const cacheSchema = z.object({ url: z.string(), fetchedAt: z.number(), text: z.string() });

export class RegistryClient {
  constructor(private readonly options: RegistryClientOptions) {}

  /** The registry at `url`: fresh from the network, else the cached copy of the same URL, else throws. */
  async load(url: string, signal?: AbortSignal): Promise<RegistryLoad> {
    let networkError: string;
    try {
      return await this.fetchFresh(url, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      networkError = error instanceof Error ? error.message : String(error);
    }
    const cached = await this.readCache(url);
    if (!cached) throw new RegistryUnavailableError(`The agent registry could not be loaded: ${networkError}.`);
    return { ...cached, networkError };
  }

  private async fetchFresh(url: string, signal: AbortSignal | undefined): Promise<RegistryLoad> {
    const checked = resolveHttpUrl(url, undefined, 'The registry URL (switchboard.registry.url)');
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    const response = await httpGet(this.options.fetch, checked, 'the agent registry', signal, timeoutMs);
    // A server that stalls midway must not leave the list loading forever.
    const deadline = AbortSignal.timeout(timeoutMs);
    const body = await readCapped(response, this.options.maxBytes ?? 8 * 1024 * 1024, 'the agent registry', signal ? AbortSignal.any([signal, deadline]) : deadline).catch(
      (error: unknown) => {
        if (isAbortError(error) && !signal?.aborted) throw new Error(`the agent registry at ${checked} stopped sending within ${Math.round(timeoutMs / 1000)} s`);
        throw error;
      },
    );
    const text = body.toString('utf8');
    const parsed = parseRegistryText(text);
    if (!parsed.ok) throw new Error(`${checked} is not a valid agent registry: ${parsed.error}`);
    const fetchedAt = (this.options.now ?? Date.now)();
    await this.writeCache({ url, fetchedAt, text });
    return { url, registry: parsed.registry, problems: parsed.problems, source: 'network', fetchedAt };
  }

  private async readCache(url: string): Promise<RegistryLoad | undefined> {
    let raw: string;
    try {
      raw = await fs.readFile(this.options.cacheFile, 'utf8');
    } catch {
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return undefined;
    }
    const cache = cacheSchema.safeParse(json);
    // A copy of another list (the setting changed) must not stand in for this one.
    if (!cache.success || cache.data.url !== url) return undefined;
    const parsed = parseRegistryText(cache.data.text);
    if (!parsed.ok) return undefined;
    return { url, registry: parsed.registry, problems: parsed.problems, source: 'cache', fetchedAt: cache.data.fetchedAt };
  }

  private async writeCache(entry: z.infer<typeof cacheSchema>): Promise<void> {
    await fs.mkdir(path.dirname(this.options.cacheFile), { recursive: true });
    const temp = `${this.options.cacheFile}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(temp, JSON.stringify(entry));
    await fs.rename(temp, this.options.cacheFile);
  }
}
