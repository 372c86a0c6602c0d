// Turns what the composer produced (text, @-mentions, images) into ACP content blocks:
// mentions go out as `resource` with the live buffer's text when the agent supports embedded
// context, else as `resource_link`; images only when the agent accepts images.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ContentBlock } from '../../acp';
import type { MentionRef } from '../../shared/chatState';
import type { ComposerPrompt } from '../../shared/messages';

export interface PromptCapabilitiesView {
  image: boolean;
  audio: boolean;
  embeddedContext: boolean;
}

/** Embedding stops past this size; the mention then goes as a link so a huge file never floods the prompt. */
const MAX_EMBEDDED_BYTES = 1024 * 1024;

export interface BuiltPrompt {
  blocks: ContentBlock[];
  /** Things left out, for a notice in the chat (e.g. images for an agent that takes none). */
  dropped: string[];
}

export async function buildPromptBlocks(prompt: ComposerPrompt, caps: PromptCapabilitiesView): Promise<BuiltPrompt> {
  const blocks: ContentBlock[] = [];
  const dropped: string[] = [];
  if (prompt.text.trim().length > 0) blocks.push({ type: 'text', text: prompt.text });
  const seen = new Set<string>();
  for (const mention of prompt.mentions) {
    if (mention.text !== undefined) {
      // Chips that carry their text (Add to Chat from a terminal, Source Control, a problem); loaded with the first.
      const attached = await import('../context/attachedText');
      if (attached.carriesText(mention)) {
        blocks.push(attached.attachedTextBlock(mention, caps.embeddedContext));
        continue;
      }
    }
    const key = `${mention.uri}#${mention.range?.startLine ?? ''}-${mention.range?.endLine ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    blocks.push(await mentionBlock(mention, caps.embeddedContext));
  }
  for (const image of prompt.images) {
    if (!caps.image) {
      dropped.push(`image ${image.name ?? ''}`.trim());
      continue;
    }
    blocks.push({ type: 'image', mimeType: image.mimeType, data: image.data });
  }
  if (blocks.length === 0) blocks.push({ type: 'text', text: prompt.text });
  return { blocks, dropped };
}

async function mentionBlock(mention: MentionRef, embed: boolean): Promise<ContentBlock> {
  const uri = vscode.Uri.parse(mention.uri);
  const name = mention.label || path.basename(uri.path) || mention.uri;
  const linkUri = withLines(mention);
  if (!embed || mention.kind === 'folder') {
    return { type: 'resource_link', uri: linkUri, name, mimeType: mention.kind === 'folder' ? undefined : mimeFor(uri) };
  }
  const text = await readMentionText(uri, mention.range);
  if (text === undefined) return { type: 'resource_link', uri: linkUri, name };
  return { type: 'resource', resource: { uri: linkUri, text, mimeType: mimeFor(uri) } };
}

/** The open document's text (unsaved edits included) or the file on disk; undefined when not text or too large. */
async function readMentionText(uri: vscode.Uri, range: MentionRef['range']): Promise<string | undefined> {
  let text: string;
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    text = open.getText();
  } else {
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_EMBEDDED_BYTES || stat.type & vscode.FileType.Directory) return undefined;
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.includes(0)) return undefined;
      text = new TextDecoder('utf-8').decode(bytes);
    } catch {
      return undefined;
    }
  }
  if (Buffer.byteLength(text) > MAX_EMBEDDED_BYTES && !range) return undefined;
  if (!range) return text;
  const lines = text.split(/\r?\n/);
  return lines.slice(Math.max(0, range.startLine - 1), range.endLine).join('\n');
}

/** `file:///a.ts#L3-L9` for selections, the convention agents (and Zed) use for line ranges. */
function withLines(mention: MentionRef): string {
  if (!mention.range) return mention.uri;
  const { startLine, endLine } = mention.range;
  return `${mention.uri}#L${startLine}${endLine !== startLine ? `-L${endLine}` : ''}`;
}

const MIME: Record<string, string> = {
  '.ts': 'text/x-typescript',
  '.tsx': 'text/x-typescript',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.md': 'text/markdown',
  '.py': 'text/x-python',
  '.rs': 'text/x-rust',
  '.go': 'text/x-go',
  '.html': 'text/html',
  '.css': 'text/css',
};

function mimeFor(uri: vscode.Uri): string {
  return MIME[path.extname(uri.path).toLowerCase()] ?? 'text/plain';
}
