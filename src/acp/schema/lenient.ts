// Leniency helpers. ACP's own schema marks most optional fields "default on error" and
// most arrays "skip invalid items": an agent's small mistake must not cost the user an
// update. We follow that, and never throw away a whole update for a detail.
import * as z from '../../shared/zod';

/** An optional field that becomes `undefined` when it is missing, null or malformed. */
export function optional<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}

/** An optional field where null is meaningful (e.g. "clear the title"): kept as null. */
export function nullable<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(z.nullable(schema)), undefined);
}

/** An array that keeps its valid items and skips the rest; a non-array becomes []. */
export function lenientArray<T extends z.ZodMiniType>(item: T) {
  return z.pipe(
    z.catch(z.array(z.unknown()), []),
    z.transform((items) => {
      const kept: z.output<T>[] = [];
      for (const entry of items) {
        const parsed = item.safeParse(entry);
        if (parsed.success) kept.push(parsed.data);
      }
      return kept;
    }),
  );
}

/** Same as lenientArray, but absent/null/non-array stays `undefined` (= "no change"). */
export function optionalLenientArray<T extends z.ZodMiniType>(item: T) {
  return z.pipe(
    z.catch(z.optional(z.array(z.unknown())), undefined),
    z.transform((items) => {
      if (items === undefined) return undefined;
      const kept: z.output<T>[] = [];
      for (const entry of items) {
        const parsed = item.safeParse(entry);
        if (parsed.success) kept.push(parsed.data);
      }
      return kept;
    }),
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
