// The checkpoint card under a user message: the files a restore changes back (each with its diff), the
// user's own changes to include or leave alone, then what was restored, with "Undo restore".
import { useState } from 'preact/hooks';
import type { CheckpointAction, CheckpointFileView, CheckpointView } from '../../../src/shared/checkpoints';
import { Icon } from './Icon';
import { useStore, useStoreVersion } from './storeHooks';

const ACTION_LABEL: Record<CheckpointFileView['action'], string> = {
  delete: 'created since: deleted',
  recreate: 'deleted since: recreated',
  revert: 'changed since: restored',
};

/** The card under a user message whose checkpoint the user opened. */
export function CheckpointCard({ sessionId, itemId }: { sessionId: string; itemId: string }) {
  const store = useStore();
  useStoreVersion();
  const view = store.checkpoint(sessionId, itemId);
  if (!view) return null;
  const act = (action: CheckpointAction) => {
    if (action.kind !== 'openDiff') store.setCheckpoint(sessionId, itemId, { phase: 'loading' });
    store.post({ type: 'checkpointAction', sessionId, itemId, action });
  };
  const close = () => store.setCheckpoint(sessionId, itemId, undefined);
  const folders = store.state.sessions.get(sessionId)?.view.folders ?? [];
  return (
    <div class="checkpoint-card" role="group" aria-label="Checkpoint">
      <CheckpointBody view={view} act={act} display={(p) => relative(p, folders)} />
      <NotRewound sessionId={sessionId} />
      <div class="checkpoint-actions">
        <button type="button" class="secondary" onClick={close}>
          Close
        </button>
      </div>
    </div>
  );
}

function CheckpointBody({ view, act, display }: { view: CheckpointView; act: (a: CheckpointAction) => void; display: (p: string) => string }) {
  switch (view.phase) {
    case 'loading':
      return (
        <p role="status">
          <Icon name="loading" spin /> Comparing the files with the checkpoint…
        </p>
      );
    case 'error':
      return (
        <p role="alert" class="checkpoint-error">
          {view.message}
        </p>
      );
    case 'preview':
      return <Preview files={view.files} act={act} display={display} />;
    case 'restored':
      return (
        <div role="status">
          <p>
            Restored {view.restored.length} file{view.restored.length === 1 ? '' : 's'} to before this message.
          </p>
          <FileList title="Could not be restored" files={view.failed.map((f) => `${display(f.path)}: ${f.reason}`)} />
          <FileList title="Your changes, left alone" files={view.skipped.map(display)} />
          {view.undoable && (
            <button type="button" onClick={() => act({ kind: 'undo' })}>
              Undo restore
            </button>
          )}
        </div>
      );
    case 'undone':
      return (
        <div role="status">
          <p>Restore undone: {view.files.length} file{view.files.length === 1 ? '' : 's'} as before it.</p>
          <FileList title="Could not be put back" files={view.failed.map((f) => `${display(f.path)}: ${f.reason}`)} />
        </div>
      );
  }
}

function Preview({ files, act, display }: { files: CheckpointFileView[]; act: (a: CheckpointAction) => void; display: (p: string) => string }) {
  const [include, setInclude] = useState<ReadonlySet<string>>(new Set());
  if (files.length === 0) return <p role="status">No file differs from this checkpoint.</p>;
  const toggle = (path: string, on: boolean) => {
    const next = new Set(include);
    if (on) next.add(path);
    else next.delete(path);
    setInclude(next);
  };
  return (
    <div>
      <p>Restoring puts these files back as they were before this message:</p>
      <ul class="checkpoint-files" role="list" aria-label="Files to restore">
        {files.map((f) => (
          <li key={f.path}>
            <button type="button" class="link-button" aria-label={`Open diff ${display(f.path)}`} title="Now ↔ at the checkpoint" onClick={() => act({ kind: 'openDiff', path: f.path })}>
              {display(f.path)}
            </button>{' '}
            <span class="checkpoint-file-action">{ACTION_LABEL[f.action]}</span>
            {f.blocked && <span class="checkpoint-blocked"> (cannot be restored: {f.blocked})</span>}
            {f.userEdited && !f.blocked && (
              <label class="checkpoint-user-edit">
                <input type="checkbox" checked={include.has(f.path)} onChange={(e) => toggle(f.path, (e.target as HTMLInputElement).checked)} /> You changed this file since: restore
                it too
              </label>
            )}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => act({ kind: 'restore', include: [...include] })}>
        Restore
      </button>
    </div>
  );
}

function FileList({ title, files }: { title: string; files: string[] }) {
  if (files.length === 0) return null;
  return (
    <div>
      <p>{title}:</p>
      <ul role="list" aria-label={title}>
        {files.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
    </div>
  );
}

/** The files go back, the conversation does not: said on the card, with a fork where the agent has one. */
function NotRewound({ sessionId }: { sessionId: string }) {
  const store = useStore();
  const fork = store.state.sessions.get(sessionId)?.view.capabilities.fork;
  return (
    <p class="checkpoint-note">
      Only files are restored: the conversation is not rewound, and the agent still remembers the later messages.
      {fork && (
        <>
          {' '}
          <button type="button" class="link-button" onClick={() => store.post({ type: 'forkSession', sessionId })}>
            Fork session
          </button>
        </>
      )}
    </p>
  );
}

function relative(p: string, folders: readonly string[]): string {
  const folder = [...folders].sort((a, b) => b.length - a.length).find((f) => p.startsWith(`${f}/`) || p.startsWith(`${f}\\`));
  return folder ? p.slice(folder.length + 1) : p;
}
