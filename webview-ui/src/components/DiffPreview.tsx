// An edit's diff in a tool call: the file, lines added and removed, the first changed lines, and "Open diff"
// for the editor's diff view.
import type { ToolCallContentItem } from '../../../src/shared/transcript';
import { previewDiff } from '../../../src/shared/lineDiff';
import { Icon } from './Icon';
import { basename } from './format';
import { useStore } from './storeHooks';

export function DiffPreview({ item, sessionId, toolCallId }: { item: Extract<ToolCallContentItem, { type: 'diff' }>; sessionId: string; toolCallId?: string }) {
  const store = useStore();
  const d = previewDiff(item.oldText, item.newText);
  return (
    <div class="diff-preview">
      <div class="diff-header">
        <Icon name={item.oldText === null ? 'new-file' : 'diff'} />
        <span class="diff-path" title={item.path}>
          {basename(item.path)}
        </span>
        <span class="diff-stat">
          {d.tooLarge ? (
            <span class="muted">too large to preview</span>
          ) : (
            <>
              <span class="added">+{d.added}</span> <span class="removed">−{d.removed}</span>
            </>
          )}
        </span>
        {toolCallId && (
          <button
            type="button"
            class="secondary-button"
            onClick={() => store.post({ type: 'openDiff', sessionId, toolCallId, path: item.path })}
          >
            Open diff
          </button>
        )}
      </div>
      <pre class="diff-lines" aria-label={`Changes to ${basename(item.path)}`}>
        {d.lines.map((l, i) => (
          <div key={i} class={l.sign === '+' ? 'diff-add' : l.sign === '-' ? 'diff-del' : 'diff-ctx'}>
            <span class="diff-sign" aria-hidden="true">
              {l.sign}
            </span>
            {l.text || ' '}
          </div>
        ))}
        {d.more > 0 && <div class="diff-more">… {d.more} more lines</div>}
      </pre>
    </div>
  );
}
