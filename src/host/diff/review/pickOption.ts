// Which permission option the editor-title Accept/Reject buttons choose. One-shot options first: a
// click on a single diff should not silently grant a standing rule.
import type { PermissionOptionLike } from '../types';

const PREFERENCE = {
  accept: ['allow_once', 'allow_always'],
  reject: ['reject_once', 'reject_always'],
} as const;

export function pickOption(options: readonly PermissionOptionLike[], decision: 'accept' | 'reject'): PermissionOptionLike | undefined {
  for (const kind of PREFERENCE[decision]) {
    const hit = options.find((o) => o.kind === kind);
    if (hit) return hit;
  }
  return undefined;
}
