// "Keep" / "Undo" CodeLenses above each pending agent hunk in the live file.
import * as vscode from 'vscode';
import { hunkRef } from '../changeDecisions';
import type { ChangeTracker } from '../changeTracker';

export class HunkCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly sub: vscode.Disposable;
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly tracker: ChangeTracker) {
    this.sub = tracker.onDidChange(() => this.changed.fire());
  }

  register(): vscode.Disposable {
    return vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this);
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const entries = this.tracker.entriesFor(doc.uri.toString());
    // The newest entry's baseline is the text just before the latest turn touched the file.
    const entry = entries[entries.length - 1];
    if (!entry) return [];
    const hunks = this.tracker.hunks(entry.key);
    // Hunks are computed against the text at the last refresh; skip while the buffer is ahead of it.
    const current = this.tracker.currentOf(entry.key);
    if (!hunks || current?.kind !== 'text' || current.text !== doc.getText()) return [];
    const lenses: vscode.CodeLens[] = [];
    for (const h of hunks) {
      const line = Math.min(h.newStart, Math.max(doc.lineCount - 1, 0));
      const range = new vscode.Range(line, 0, line, 0);
      const ref = hunkRef(entry.key, h);
      const what = h.oldLines === 0 ? `+${h.newLines}` : h.newLines === 0 ? `−${h.oldLines}` : `+${h.newLines} −${h.oldLines}`;
      lenses.push(
        new vscode.CodeLens(range, { title: `$(check) Keep (${what})`, command: 'switchboard.changes.keepHunk', arguments: [ref], tooltip: "Keep the agent's change" }),
        new vscode.CodeLens(range, { title: '$(discard) Undo', command: 'switchboard.changes.undoHunk', arguments: [ref], tooltip: "Revert the agent's change to these lines" }),
      );
    }
    return lenses;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
