// zod/mini with English messages: import `* as z` from here (src/agents/zod.ts in src/agents), never from
// 'zod' or 'zod/mini' (lint-enforced). zod/mini is zod's tree-shakable API: the bundle keeps only the schema
// kinds we use (~45 KB of zod, against ~150 KB for the classic `z`), but it registers no locale, and without
// one every issue would read "Invalid input". esbuild.mjs keeps this module's effect at load in the bundle.
import { config, locales } from 'zod/mini';

config(locales.en());

export * from 'zod/mini';
