import type { ChangedFileView } from '../../../src/shared/chatState';
import { basename } from './format';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

const STATUS_LABEL: Record<ChangedFileView['status'], string> = { created: 'added', modified: 'modified', deleted: 'deleted' };

/** The session's changed files pending review: open the diff, keep or undo each, or all at once. */
export function ChangedFiles({ sessionId, files }: { sessionId: string; files: ChangedFileView[] | undefined }) {
  const store = useStore();
  if (!files || files.length === 0) return null;
  const totals = files.reduce((t, f) => ({ added: t.added + (f.countsKnown ? f.added : 0), removed: t.removed + (f.countsKnown ? f.removed : 0) }), { added: 0, removed: 0 });
  const anyUndoable = files.some((f) => f.undoable);
  return (
    <section class="changed-files" aria-label="Changed files">
      <div class="changed-files-header">
        <span class="changed-files-title">
          {files.length === 1 ? '1 file changed' : `${files.length} files changed`}
          <span class="diff-stat">
            {' '}
            <span class="added">+{totals.added}</span> <span class="removed">−{totals.removed}</span>
          </span>
        </span>
        <button type="button" class="secondary-button" onClick={() => store.post({ type: 'changedFilesAll', sessionId, action: 'keep' })}>
          <Icon name="check-all" /> Keep All
        </button>
        <button
          type="button"
          class="secondary-button"
          disabled={!anyUndoable}
          onClick={() => store.post({ type: 'changedFilesAll', sessionId, action: 'undo' })}
        >
          <Icon name="discard" /> Undo All
        </button>
      </div>
      <ul class="changed-files-list">
        {files.map((f) => {
          const display = f.name || f.path;
          const base = basename(display);
          const dir = display.slice(0, Math.max(0, display.length - base.length)).replace(/[\\/]$/, '');
          /** Accessible names use the relative path, unique even when two files share a base name. */
          const name = display;
          return (
            <li key={f.key} class={`changed-file status-${f.status}`} title={f.note ? `${f.path}\n${f.note}` : f.path}>
              <span class="changed-file-name">
                <Icon name={f.status === 'created' ? 'diff-added' : f.status === 'deleted' ? 'diff-removed' : 'diff-modified'} label={STATUS_LABEL[f.status]} />
                <span class="changed-file-base">{base}</span>
                {dir && <span class="muted changed-file-dir">{dir}</span>}
              </span>
              {f.countsKnown ? (
                <span class="diff-stat">
                  <span class="added" aria-label={`${f.added} added`}>+{f.added}</span>{' '}
                  <span class="removed" aria-label={`${f.removed} removed`}>−{f.removed}</span>
                </span>
              ) : (
                !f.note && <span class="muted diff-stat">no line counts</span>
              )}
              {f.conflict && (
                <span class="badge conflict-badge" title="You edited this file after the agent changed it">
                  conflict
                </span>
              )}
              <span class="changed-file-actions">
                <button type="button" class="icon-button" aria-label={`Open diff ${name}`} title="Open diff" onClick={() => store.post({ type: 'changedFileAction', sessionId, key: f.key, action: 'open' })}>
                  <Icon name="diff" />
                </button>
                <button type="button" class="icon-button" aria-label={`Keep ${name}`} title="Keep" onClick={() => store.post({ type: 'changedFileAction', sessionId, key: f.key, action: 'keep' })}>
                  <Icon name="check" />
                </button>
                <button
                  type="button"
                  class="icon-button"
                  aria-label={`Undo ${name}`}
                  title={f.undoable ? 'Undo' : (f.note ?? 'The content before the change is unknown')}
                  disabled={!f.undoable}
                  onClick={() => store.post({ type: 'changedFileAction', sessionId, key: f.key, action: 'undo' })}
                >
                  <Icon name="discard" />
                </button>
              </span>
              {/* On a line of its own: beside the name it would squeeze the name to a few letters. */}
              {f.note && <span class="changed-file-note muted">{f.note}</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
