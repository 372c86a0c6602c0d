// Turns what the composer produced (text, @-mentions, images) into ACP content blocks. Every mention is
// read when the message is sent: it goes out as `resource` (with its mimeType) when the agent announces
// embedded context, else a file as `resource_link` and generated text (problems, a diff, a terminal's last
// command, a session) as text. All of it counts against one budget per prompt; a mention that cannot be
// read or a prompt over the budget throws a MentionError, and then nothing is sent.
import type { ContentBlock } from '../../acp';
import type { MentionReadContext, MentionSources } from '../mentions/mentionSources';
import { PromptBudget } from '../mentions/promptBudget';
import type { ComposerPrompt } from '../../shared/messages';

export interface PromptCapabilitiesView {
  image: boolean;
  audio: boolean;
  embeddedContext: boolean;
}

export interface BuiltPrompt {
  blocks: ContentBlock[];
  /** Things left out, for a notice in the chat (e.g. images for an agent that takes none). */
  dropped: string[];
}

export interface PromptSources {
  mentions: MentionSources;
  context: Omit<MentionReadContext, 'embed'>;
}

export async function buildPromptBlocks(prompt: ComposerPrompt, caps: PromptCapabilitiesView, sources: PromptSources): Promise<BuiltPrompt> {
  const blocks: ContentBlock[] = [];
  const dropped: string[] = [];
  const budget = new PromptBudget(sources.mentions.budgetBytes());
  const embed = caps.embeddedContext;
  if (prompt.text.trim().length > 0) {
    blocks.push({ type: 'text', text: prompt.text });
    budget.addText(prompt.text);
  }
  const seen = new Set<string>();
  for (const mention of prompt.mentions) {
    const key = `${mention.kind}:${mention.uri}#${mention.range?.startLine ?? ''}-${mention.range?.endLine ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const content = await sources.mentions.read(mention, { ...sources.context, embed });
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
  budget.check();
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
