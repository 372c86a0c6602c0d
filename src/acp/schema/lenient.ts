// Leniency helpers. ACP's own schema marks most optional fields "default on error" and
// most arrays "skip invalid items": an agent's small mistake must not cost the user an
// update. We follow that, and never throw away a whole update for a detail.
import { z } from 'zod';

/** An optional field that becomes `undefined` when it is missing, null or malformed. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

/** An optional field where null is meaningful (e.g. "clear the title"): kept as null. */
export function nullable<T extends z.ZodType>(schema: T) {
  return schema.nullable().optional().catch(undefined);
}

/** An array that keeps its valid items and skips the rest; a non-array becomes []. */
export function lenientArray<T extends z.ZodType>(item: T) {
  return z.array(z.unknown()).catch([]).transform((items) => {
    const kept: z.output<T>[] = [];
    for (const entry of items) {
      const parsed = item.safeParse(entry);
      if (parsed.success) kept.push(parsed.data);
    }
    return kept;
  });
}

/** Same as lenientArray, but absent/null/non-array stays `undefined` (= "no change"). */
export function optionalLenientArray<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .optional()
    .catch(undefined)
    .transform((items) => {
      if (items === undefined) return undefined;
      const kept: z.output<T>[] = [];
      for (const entry of items) {
        const parsed = item.safeParse(entry);
        if (parsed.success) kept.push(parsed.data);
      }
      return kept;
    });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
