// Saving a buffer right after we edited it (an agent's write, a restore from the diff review): saved while it
// holds exactly our edit, never once the user typed into it (then what it holds is theirs to save). A save can
// fail for a moment (an outside change VS Code just noticed, another extension's aborted onWillSave participant
// on a loaded machine), so it is tried again, backing off.

/** What saving needs of a TextDocument. */
export interface SavableDocument {
  readonly version: number;
  readonly isDirty: boolean;
  save(): PromiseLike<boolean>;
}

/** `saved`: nothing of ours is unsaved (saved here or by auto save); `theirs`: the user typed since, not saved. */
export type SaveOutcome = 'saved' | 'theirs' | 'failed';

/**
 * The waits between attempts: the first attempt saves at once on a quiet machine; on a loaded one two quick
 * attempts were not always enough (seen in CI), so each wait doubles, about 4 s in all before `failed`.
 */
const BACKOFF_MS = [250, 500, 1000, 2000];

/** Saves `doc` while its version is still `version` (the version our edit left it at). */
export async function saveOurEdit(doc: SavableDocument, version: number): Promise<SaveOutcome> {
  for (let attempt = 0; ; attempt++) {
    if (doc.version !== version) return 'theirs';
    if (!doc.isDirty || (await doc.save())) return 'saved';
    if (doc.version !== version) return 'theirs';
    // VS Code's save answers false for a buffer that was not dirty (saved meanwhile, auto save).
    if (!doc.isDirty) return 'saved';
    const wait = BACKOFF_MS[attempt];
    if (wait === undefined) return 'failed';
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
