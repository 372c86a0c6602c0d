// Prompt content must fit the agent's promptCapabilities: text and resource_link always,
// image/audio/resource only when advertised. Embedded resources can be downgraded to links.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { UnsupportedPromptContentError } from '../errors';
import type { AgentCapabilities } from '../schema/agentResponses';

export interface RestrictOptions {
  /** Turn unsupported embedded resources into resource_link blocks instead of failing. */
  downgradeResources?: boolean;
}

export function restrictPromptContent(
  blocks: ContentBlock[],
  capabilities: AgentCapabilities['promptCapabilities'],
  options: RestrictOptions = {},
): ContentBlock[] {
  const rejected = new Set<string>();
  const out: ContentBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
      case 'resource_link':
        out.push(block);
        break;
      case 'image':
        if (capabilities.image) out.push(block);
        else rejected.add('image');
        break;
      case 'audio':
        if (capabilities.audio) out.push(block);
        else rejected.add('audio');
        break;
      case 'resource':
        if (capabilities.embeddedContext) out.push(block);
        else if (options.downgradeResources) out.push(toResourceLink(block));
        else rejected.add('resource');
        break;
      default:
        rejected.add(String((block as { type?: unknown }).type));
    }
  }
  if (rejected.size > 0) throw new UnsupportedPromptContentError([...rejected]);
  return out;
}

function toResourceLink(block: Extract<ContentBlock, { type: 'resource' }>): ContentBlock {
  const { uri, mimeType } = block.resource;
  const name = decodeURIComponent(uri.replace(/[?#].*$/, '').split('/').pop() || uri);
  return mimeType ? { type: 'resource_link', uri, name, mimeType } : { type: 'resource_link', uri, name };
}
