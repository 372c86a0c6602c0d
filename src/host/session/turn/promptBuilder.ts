// Turns what the composer produced (text, @-mentions, images) into ACP content blocks. Every mention is
// read when the message is sent: it goes out as `resource` (with its mimeType) when the agent announces
// embedded context, else a file as `resource_link` and generated text (problems, a diff, a terminal's last
// command, a session) as text. All of it, images included, counts against one budget per prompt; a mention that cannot be
// read or a prompt over the budget refuses the whole prompt (`refused`): then nothing is sent.
import * as vscode from 'vscode';
import type { ContentBlock } from '../../../acp';
import type { MentionSources } from '../../mentions/mentionSources';
import { MentionError } from '../../mentions/mentionError';
import { BUDGET_SETTING, PromptBudget, budgetFrom } from '../../mentions/promptBudget';
import type { ComposerPrompt } from '../../../shared/messages';
import type { SessionRegistry } from '../tabs/sessionRegistry';
import { sessionTranscripts } from '../tabs/sessionTranscripts';
import type { TranscriptStore } from '../tabs/transcriptStore';

export interface PromptCapabilitiesView {
  image: boolean;
  audio: boolean;
  embeddedContext: boolean;
}

export interface BuiltPrompt {
  blocks: ContentBlock[];
  /** Things left out, for a notice in the chat (e.g. images for an agent that takes none). */
  dropped: string[];
  /** Why nothing may be sent: a mention that cannot be read, or a prompt over the budget. */
  refused?: { message: string; detail: string };
}

export interface PromptSources {
  mentions: MentionSources;
  /** The session's cwd and additional directories. */
  folders: readonly string[];
  /** The open sessions and the saved ones, for `@Sessions`. */
  sessions: SessionRegistry;
  store: TranscriptStore;
}

export async function buildPromptBlocks(prompt: ComposerPrompt, caps: PromptCapabilitiesView, sources: PromptSources): Promise<BuiltPrompt> {
  try {
    return await build(prompt, caps, sources);
  } catch (e) {
    if (e instanceof MentionError) return { blocks: [], dropped: [], refused: { message: e.message, detail: e.detail } };
    throw e;
  }
}

async function build(prompt: ComposerPrompt, caps: PromptCapabilitiesView, sources: PromptSources): Promise<BuiltPrompt> {
  const blocks: ContentBlock[] = [];
  const dropped: string[] = [];
  // `switchboard.maxPromptBytes`, read on every message.
  const budget = new PromptBudget(budgetFrom(vscode.workspace.getConfiguration().get(BUDGET_SETTING)));
  const embed = caps.embeddedContext;
  const transcripts = sessionTranscripts(sources.sessions, sources.store);
  if (prompt.text.trim().length > 0) {
    blocks.push({ type: 'text', text: prompt.text });
    budget.addText(prompt.text);
  }
  const seen = new Set<string>();
  for (const mention of prompt.mentions) {
    if (mention.text !== undefined) {
      // Chips that carry their text (Add to Chat from a terminal, Source Control, a problem); loaded with the first.
      const attached = await import('../../context/attachedText');
      if (attached.carriesText(mention)) {
        const block = attached.attachedTextBlock(mention, embed);
        blocks.push(block);
        budget.add(mention.label, block.type === 'resource' && 'text' in block.resource ? block.resource.text : block.type === 'text' ? block.text : '', false);
        continue;
      }
    }
    const key = `${mention.kind}:${mention.uri}#${mention.range?.startLine ?? ''}-${mention.range?.endLine ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const content = await sources.mentions.read(mention, { folders: sources.folders, transcripts, embed });
    if (content.text !== undefined && embed) {
      blocks.push({ type: 'resource', resource: { uri: content.uri, text: content.text, ...(content.mimeType ? { mimeType: content.mimeType } : {}) } });
      budget.add(mention.label, content.text, content.linkable);
    } else if (content.text !== undefined && !content.linkable) {
      const text = `@${mention.label}:\n${content.text}`;
      blocks.push({ type: 'text', text });
      budget.add(mention.label, text, false);
    } else {
      blocks.push({ type: 'resource_link', uri: content.uri, name: content.name, ...(content.mimeType ? { mimeType: content.mimeType } : {}) });
      budget.addText(content.uri);
    }
  }
  for (const image of prompt.images) {
    if (!caps.image) {
      dropped.push(`image ${image.name ?? ''}`.trim());
      continue;
    }
    blocks.push({ type: 'image', mimeType: image.mimeType, data: image.data });
    budget.addImage(image.name, image.data);
  }
  budget.check();
  if (blocks.length === 0) blocks.push({ type: 'text', text: prompt.text });
  return { blocks, dropped };
}
