import type { TurnUsage } from '../../../src/shared/transcript';
import { formatTokens } from './format';

/** "1.2k tokens: 1k in, 200 out (50 cached)" from a turn's token counts. */
export function usageText(u: TurnUsage): string | undefined {
  const total = u.totalTokens ?? (u.inputTokens !== undefined || u.outputTokens !== undefined ? (u.inputTokens ?? 0) + (u.outputTokens ?? 0) : undefined);
  if (total === undefined) return undefined;
  const parts = [u.inputTokens !== undefined ? `${formatTokens(u.inputTokens)} in` : '', u.outputTokens !== undefined ? `${formatTokens(u.outputTokens)} out` : ''].filter(Boolean);
  const cached = u.cachedReadTokens ? ` (${formatTokens(u.cachedReadTokens)} cached)` : '';
  return `This turn: ${formatTokens(total)} tokens${parts.length ? `: ${parts.join(', ')}` : ''}${cached}`;
}
