// The `switchboard.changedFiles` tree: turns with pending agent changes, and their files with
// added/removed line counts. Clicking a file opens its diff; inline actions Keep and Undo it.
import * as path from 'path';
import * as vscode from 'vscode';
import type { TurnRef } from '../changeStore';
import type { ChangeTracker } from '../changeTracker';
import { describePath } from '../changeTracker';
import type { ChangedFileSummary } from '../types';

export const VIEW_ID = 'switchboard.changedFiles';

export type ChangedNode = { type: 'turn'; turn: TurnRef; index: number } | { type: 'file'; summary: ChangedFileSummary };

export function countsLabel(s: ChangedFileSummary): string {
  if (!s.countsKnown) return s.status === 'deleted' ? 'deleted' : '';
  return `+${s.added} −${s.removed}`;
}

export class ChangedFilesTree implements vscode.TreeDataProvider<ChangedNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ChangedNode | undefined>();
  private readonly sub: vscode.Disposable;
  readonly onDidChangeTreeData = this.changed.event;
  /** Each turn's label, given when it began (its session's title and number); kept for this window's life. */
  private readonly labels = new Map<string, string>();

  constructor(private readonly tracker: ChangeTracker) {
    this.sub = tracker.onDidChange(() => this.changed.fire(undefined));
  }

  /** The label the turn shows in the tree. */
  label(turn: TurnRef, label: string): void {
    this.labels.set(JSON.stringify([turn.sessionId, turn.turnId]), label);
  }

  getChildren(node?: ChangedNode): ChangedNode[] {
    if (!node) return this.tracker.store.turns().map((turn, index) => ({ type: 'turn', turn, index }));
    if (node.type === 'turn') return this.tracker.summaries(node.turn).map((summary) => ({ type: 'file', summary }));
    return [];
  }

  getTreeItem(node: ChangedNode): vscode.TreeItem {
    if (node.type === 'turn') {
      const files = this.tracker.summaries(node.turn);
      const label = this.labels.get(JSON.stringify([node.turn.sessionId, node.turn.turnId])) ?? `Turn ${node.turn.turnId.slice(node.turn.turnId.lastIndexOf('#') + 1)}`;
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${files.length} file${files.length === 1 ? '' : 's'}`;
      item.tooltip = `Session ${node.turn.sessionId}, turn ${node.turn.turnId}`;
      item.contextValue = 'switchboard.changedTurn';
      item.iconPath = new vscode.ThemeIcon('history');
      return item;
    }
    const s = node.summary;
    const uri = vscode.Uri.parse(s.uri);
    const item = new vscode.TreeItem(path.basename(uri.path), vscode.TreeItemCollapsibleState.None);
    item.resourceUri = uri;
    const dir = path.dirname(describePath(s.uri));
    item.description = [countsLabel(s), s.conflict ? 'edited since' : '', dir === '.' ? '' : dir].filter((x) => x).join(' · ');
    item.tooltip = [s.path, s.status, s.note].filter((x) => x).join('\n');
    item.contextValue = s.undoable ? 'switchboard.changedFile.undoable' : 'switchboard.changedFile';
    item.command = { command: 'switchboard.changes.openDiff', title: 'Open Diff', arguments: [node] };
    item.accessibilityInformation = { label: `${path.basename(uri.path)}, ${s.status}, ${s.added} added, ${s.removed} removed lines${s.conflict ? ', edited since the agent wrote it' : ''}` };
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
