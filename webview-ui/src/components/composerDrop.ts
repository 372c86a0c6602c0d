// What a paste or a drop puts in the composer: images the agent can take (read as base64 attachments), or
// file chips for URIs dragged from the Explorer or an editor tab.
import type { ImageAttachment, MentionRef } from '../../../src/shared/chatState';

/** The files among `files` that are images the chat can attach. */
export function imageFiles(files: File[]): File[] {
  return files.filter((f) => /^image\/(png|jpe?g|gif|webp)$/i.test(f.type));
}

export function readImage(file: File): Promise<ImageAttachment> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onerror = () => reject(r.error);
    r.onload = () => {
      const url = String(r.result);
      const comma = url.indexOf(',');
      resolve({ id: `img${Date.now()}${Math.random().toString(36).slice(2, 6)}`, mimeType: file.type, data: url.slice(comma + 1), name: file.name });
    };
    r.readAsDataURL(file);
  });
}

/** The file chips of a drop's `text/uri-list` (comment lines skipped). */
export function droppedMentions(uriList: string): MentionRef[] {
  return uriList
    .split(/\r?\n/)
    .filter((u) => u && !u.startsWith('#'))
    .map((uri) => ({ kind: 'file', uri, label: labelOf(uri) }));
}

/** The URI's last segment, decoded when its escapes are valid. */
function labelOf(uri: string): string {
  const last = uri.split('/').pop() || uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
