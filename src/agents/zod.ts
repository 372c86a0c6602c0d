// zod/mini with English messages, for src/agents (which imports nothing of ours outside it): the same as
// src/shared/zod.ts, which says why. Import `* as z` from here, never from 'zod' or 'zod/mini'.
import { config, locales } from 'zod/mini';

config(locales.en());

export * from 'zod/mini';
