// A tree view's data that arrives later: the view is created once at activation (re-registering a view id
// after disposing the first registration left VS Code showing an empty view), and its data provider is
// connected when the services start. Until then it asks for them and shows nothing.
import * as vscode from 'vscode';

export class DeferredTreeData<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private target: vscode.TreeDataProvider<T> | undefined;
  private readonly changed = new vscode.EventEmitter<T | undefined | void>();
  private forwarding: vscode.Disposable | undefined;
  readonly onDidChangeTreeData = this.changed.event;

  /** `wanted`: the view needs its data (it became visible before the services started). */
  constructor(private readonly wanted: () => void) {}

  connect(target: vscode.TreeDataProvider<T>): void {
    this.forwarding?.dispose();
    this.target = target;
    this.forwarding = target.onDidChangeTreeData?.((e) => this.changed.fire(Array.isArray(e) || e === null ? undefined : e));
    this.changed.fire();
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (!this.target) throw new Error('the tree has no data yet');
    return this.target.getTreeItem(element);
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    if (this.target) return this.target.getChildren(element);
    this.wanted();
    return [];
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.target?.getParent?.(element);
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}
