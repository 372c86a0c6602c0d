// Read-only virtual documents for the left (and, before a write, right) side of diff editors.
// Content lives here in memory keyed by an opaque id; the URI names only the id and base name.
import * as vscode from 'vscode';
import { DIFF_SCHEME, diffUriPath, newDiffId, parseDiffUriPath } from './diffUri';

interface Doc {
  text: string;
  /** Owned docs are deleted by their owner; the rest are evicted oldest-first beyond the cap. */
  owned: boolean;
}

/** Ad-hoc docs (e.g. diffs opened from the chat) kept before the oldest is dropped. */
const MAX_UNOWNED = 200;

export class DiffContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, Doc>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Registers the provider for the `switchboard-diff` scheme. */
  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string | undefined {
    const id = parseDiffUriPath(uri.path);
    // Unknown ids return undefined so another instance registered for the scheme (tests) can answer.
    return id !== undefined ? this.docs.get(id)?.text : undefined;
  }

  /** Store `text` and return its URI. `owned` docs stay until `delete`; others are capped. */
  put(text: string, fileName: string, owned: boolean): vscode.Uri {
    const id = newDiffId();
    this.docs.set(id, { text, owned });
    const uri = vscode.Uri.from({ scheme: DIFF_SCHEME, path: diffUriPath(id, fileName) });
    if (!owned) this.evict();
    return uri;
  }

  /** Replace the content behind `uri` (e.g. the baseline after a hunk was kept); open editors refresh. */
  update(uri: vscode.Uri, text: string): void {
    const id = parseDiffUriPath(uri.path);
    const doc = id !== undefined ? this.docs.get(id) : undefined;
    if (!doc || doc.text === text) return;
    doc.text = text;
    this.changed.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    const id = parseDiffUriPath(uri.path);
    if (id === undefined) return;
    this.docs.delete(id);
  }

  has(uri: vscode.Uri): boolean {
    const id = parseDiffUriPath(uri.path);
    return uri.scheme === DIFF_SCHEME && id !== undefined && this.docs.has(id);
  }

  private evict(): void {
    const unowned = [...this.docs.entries()].filter(([, d]) => !d.owned);
    for (let i = 0; i < unowned.length - MAX_UNOWNED; i++) {
      this.docs.delete(unowned[i][0]);
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.docs.clear();
  }
}
