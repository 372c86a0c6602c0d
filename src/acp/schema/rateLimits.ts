// Rate-limit windows from a `usage_update`'s `_meta`. Claude sends one window per report under
// "_claude/rateLimit" ({status, rateLimitType, utilization 0..1, resetsAt in epoch seconds}); a report
// may also list several windows. Anything malformed is skipped: a quota display never fails an update.
import type { RateLimitWindow } from '../../shared/transcript';
import { isRecord } from './lenient';

const CLAUDE_KEY = '_claude/rateLimit';
const MAX_WINDOWS = 8;

/** The windows a `usage_update`'s `_meta` reports, or undefined when it reports none. */
export function rateLimitsOf(meta: unknown): RateLimitWindow[] | undefined {
  if (!isRecord(meta)) return undefined;
  const info = meta[CLAUDE_KEY];
  if (!isRecord(info)) return undefined;
  const windows: RateLimitWindow[] = [];
  const main = windowOf(info);
  if (main) windows.push(main);
  const more = info.unifiedWindows;
  const listed = Array.isArray(more) ? more : isRecord(more) ? Object.entries(more).map(([type, w]) => (isRecord(w) ? { rateLimitType: type, ...w } : w)) : [];
  for (const entry of listed) {
    const w = isRecord(entry) ? windowOf(entry) : undefined;
    if (w && !windows.some((known) => known.window === w.window)) windows.push(w);
  }
  return windows.length > 0 ? windows.slice(0, MAX_WINDOWS) : undefined;
}

function windowOf(info: Record<string, unknown>): RateLimitWindow | undefined {
  const type = info.rateLimitType ?? info.type;
  if (typeof type !== 'string' || type.length === 0 || type.length > 64) return undefined;
  const window: RateLimitWindow = { window: type, status: typeof info.status === 'string' ? info.status.slice(0, 32) : 'allowed' };
  const utilization = info.utilization;
  if (typeof utilization === 'number' && Number.isFinite(utilization) && utilization >= 0) window.utilization = utilization > 1 && utilization <= 100 ? utilization / 100 : Math.min(utilization, 1);
  const resetsAt = info.resetsAt;
  if (typeof resetsAt === 'number' && Number.isFinite(resetsAt) && resetsAt > 0) window.resetsAt = resetsAt < 1e12 ? resetsAt * 1000 : resetsAt;
  return window;
}

/** `known` with each window of `reported` replacing the one of the same name (new ones appended). */
export function mergeRateLimits(known: readonly RateLimitWindow[] | undefined, reported: readonly RateLimitWindow[]): RateLimitWindow[] {
  const merged = [...(known ?? [])];
  for (const w of reported) {
    const at = merged.findIndex((k) => k.window === w.window);
    if (at >= 0) merged[at] = w;
    else merged.push(w);
  }
  return merged.slice(0, MAX_WINDOWS);
}
