// What the chat shows of a checkpoint (the files before one of the user's messages): the preview of the
// files a restore changes back, the restore's outcome, and its undo. Plain JSON, host -> webview.

export interface CheckpointFileView {
  /** Absolute path. */
  path: string;
  /** What restoring does to it: delete a file created since, recreate one deleted since, or revert one changed since. */
  action: 'delete' | 'recreate' | 'revert';
  /** The user changed it since the message (outside the agent's turns): left alone unless chosen. */
  userEdited: boolean;
  /** Why it cannot be restored now (read-only, unsaved changes in an editor...). */
  blocked?: string;
}

export type CheckpointView =
  | { phase: 'loading' }
  | { phase: 'preview'; files: CheckpointFileView[] }
  | {
      phase: 'restored';
      restored: string[];
      /** Files that could not be restored, with the reason; the others were. */
      failed: { path: string; reason: string }[];
      /** The user's own changes, left alone. */
      skipped: string[];
      /** "Undo restore" puts back what the restore replaced. */
      undoable: boolean;
    }
  | { phase: 'undone'; files: string[]; failed: { path: string; reason: string }[] }
  | { phase: 'error'; message: string };

/** What the chat asks of a checkpoint. `include`: files the user changed that are restored too. */
export type CheckpointAction =
  | { kind: 'preview' }
  | { kind: 'restore'; include: string[] }
  | { kind: 'undo' }
  | { kind: 'openDiff'; path: string };
