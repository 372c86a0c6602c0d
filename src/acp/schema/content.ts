// Content blocks, parsed straight into the transcript's shape. An unknown or malformed
// block is kept as `{type: 'unknown', raw}`: the update it came in is never dropped.
import * as z from '../../shared/zod';
import type { TranscriptContent, ToolCallContentItem, ToolLocation } from '../../shared/transcript';
import { optional } from './lenient';

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ImageBlock = z.object({
  type: z.literal('image'),
  mimeType: z.string(),
  data: optional(z.string()),
  uri: optional(z.string()),
});
const AudioBlock = z.object({ type: z.literal('audio'), mimeType: z.string(), data: optional(z.string()) });
const ResourceLinkBlock = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: optional(z.string()),
  mimeType: optional(z.string()),
  size: optional(z.number()),
});
const EmbeddedResourceBlock = z.pipe(
  z.object({
    type: z.literal('resource'),
    resource: z.union([
      z.object({ uri: z.string(), text: z.string(), mimeType: optional(z.string()) }),
      z.object({ uri: z.string(), blob: z.string(), mimeType: optional(z.string()) }),
    ]),
  }),
  z.transform((block): TranscriptContent => ({ type: 'resource', ...block.resource })),
);

const KnownContentBlock = z.discriminatedUnion('type', [TextBlock, ImageBlock, AudioBlock, ResourceLinkBlock, EmbeddedResourceBlock]);

export const ContentBlockSchema: z.ZodMiniType<TranscriptContent> = z.union([
  KnownContentBlock,
  z.pipe(z.unknown(), z.transform((raw): TranscriptContent => ({ type: 'unknown', raw }))),
]) as z.ZodMiniType<TranscriptContent>;

export function parseContentBlock(raw: unknown): TranscriptContent {
  return ContentBlockSchema.parse(raw);
}

const KnownToolCallContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('content'), content: ContentBlockSchema }),
  z.object({
    type: z.literal('diff'),
    path: z.string(),
    oldText: z.pipe(z.catch(z.nullish(z.string()), null), z.transform((v) => v ?? null)),
    newText: z.string(),
  }),
  z.object({ type: z.literal('terminal'), terminalId: z.string() }),
]);

export const ToolCallContentSchema: z.ZodMiniType<ToolCallContentItem> = z.union([
  KnownToolCallContent,
  z.pipe(z.unknown(), z.transform((raw): ToolCallContentItem => ({ type: 'unknown', raw }))),
]) as z.ZodMiniType<ToolCallContentItem>;

export const ToolLocationSchema: z.ZodMiniType<ToolLocation> = z.pipe(
  z.object({ path: z.string(), line: optional(z.int().check(z.minimum(0))) }),
  z.transform((l): ToolLocation => (l.line === undefined ? { path: l.path } : { path: l.path, line: l.line })),
);
