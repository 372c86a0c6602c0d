// Content blocks, parsed straight into the transcript's shape. An unknown or malformed
// block is kept as `{type: 'unknown', raw}`: the update it came in is never dropped.
import { z } from 'zod';
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
const EmbeddedResourceBlock = z
  .object({
    type: z.literal('resource'),
    resource: z.union([
      z.object({ uri: z.string(), text: z.string(), mimeType: optional(z.string()) }),
      z.object({ uri: z.string(), blob: z.string(), mimeType: optional(z.string()) }),
    ]),
  })
  .transform((block): TranscriptContent => ({ type: 'resource', ...block.resource }));

const KnownContentBlock = z.discriminatedUnion('type', [TextBlock, ImageBlock, AudioBlock, ResourceLinkBlock, EmbeddedResourceBlock]);

export const ContentBlockSchema: z.ZodType<TranscriptContent> = z.union([
  KnownContentBlock,
  z.unknown().transform((raw): TranscriptContent => ({ type: 'unknown', raw })),
]) as z.ZodType<TranscriptContent>;

export function parseContentBlock(raw: unknown): TranscriptContent {
  return ContentBlockSchema.parse(raw);
}

const KnownToolCallContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('content'), content: ContentBlockSchema }),
  z.object({
    type: z.literal('diff'),
    path: z.string(),
    oldText: z.string().nullable().optional().catch(null).transform((v) => v ?? null),
    newText: z.string(),
  }),
  z.object({ type: z.literal('terminal'), terminalId: z.string() }),
]);

export const ToolCallContentSchema: z.ZodType<ToolCallContentItem> = z.union([
  KnownToolCallContent,
  z.unknown().transform((raw): ToolCallContentItem => ({ type: 'unknown', raw })),
]) as z.ZodType<ToolCallContentItem>;

export const ToolLocationSchema: z.ZodType<ToolLocation> = z
  .object({ path: z.string(), line: optional(z.number().int().min(0)) })
  .transform((l): ToolLocation => (l.line === undefined ? { path: l.path } : { path: l.path, line: l.line }));
