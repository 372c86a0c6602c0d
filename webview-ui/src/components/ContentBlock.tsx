// One content block of a message or tool call: text as Markdown, an image, audio, a resource link or an
// embedded resource.
import type { TranscriptContent } from '../../../src/shared/transcript';
import { basename } from './format';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';
import { useStore } from './storeHooks';
import { Markdown } from './Markdown';

const IMAGE_MIME = /^image\/(png|jpe?g|gif|webp|bmp)$/i;

/** One content block (text as Markdown, images inline as data: only, resources as chips). */
/**
 * `stream`: the key under which the host's text appends to this block arrive (message text only);
 * `openRequest`: a new value opens a resource's contents (find revealing a match in them).
 */
export function ContentBlock({ block, idBase, stream, openRequest }: { block: TranscriptContent; idBase: string; stream?: string; openRequest?: object }) {
  const store = useStore();
  switch (block.type) {
    case 'text':
      return <Markdown text={block.text} stream={stream} />;
    case 'image':
      if (block.data && IMAGE_MIME.test(block.mimeType) && /^[A-Za-z0-9+/=\s]*$/.test(block.data)) {
        return <img class="content-image" alt="Image from the agent" src={`data:${block.mimeType};base64,${block.data}`} />;
      }
      return (
        <div class="content-chip">
          <Icon name="file-media" /> Image ({block.mimeType}){block.uri ? ` ${block.uri}` : ''}
        </div>
      );
    case 'audio':
      return (
        <div class="content-chip">
          <Icon name="unmute" /> Audio ({block.mimeType})
        </div>
      );
    case 'resource_link':
      return (
        <button type="button" class="content-chip link-button" title={block.uri} onClick={() => store.post({ type: 'openResource', uri: block.uri })}>
          <Icon name="file" />
          {block.title || block.name || basename(block.uri)}
        </button>
      );
    case 'resource':
      return (
        <div class="resource">
          <button
            type="button"
            class="content-chip link-button"
            title={block.uri}
            onClick={() => store.post({ type: 'openResource', uri: block.uri, text: block.text, mimeType: block.mimeType })}
          >
            <Icon name="file-code" />
            {basename(block.uri)}
          </button>
          {block.text !== undefined && (
            <Collapsible id={`${idBase}-res`} label="Contents" ariaLabel={`Contents of ${basename(block.uri)}`} openRequest={openRequest}>
              {() => <pre class="resource-text">{block.text!.length > 20000 ? `${block.text!.slice(0, 20000)}\n…` : block.text}</pre>}
            </Collapsible>
          )}
        </div>
      );
    default:
      return (
        <Collapsible id={`${idBase}-raw`} label="Unsupported content" className="unsupported">
          {() => <pre class="raw-json">{JSON.stringify((block as { raw?: unknown }).raw ?? block, null, 2)}</pre>}
        </Collapsible>
      );
  }
}
