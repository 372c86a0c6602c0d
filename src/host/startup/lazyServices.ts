// Activation registers only what VS Code needs before Switchboard is used: the chat view's provider and
// stand-ins for the commands, and the changed-files view with no data yet. The services (services.ts: sessions, bridges, diff
// review, chat, and everything they import) load on first use: the chat view resolving, a command, the
// changed-files view opening, or the API. The stand-ins are disposed just before the services register the
// real commands, so each id is registered once at a time; the two views are registered once for good.
import * as vscode from 'vscode';
import type { LogChannels } from '../log/logChannels';
import { DeferredTreeData } from './deferredTree';
import type { SwitchboardApi } from './services';

const CHAT_VIEW = 'switchboard.chat';
const CHANGED_FILES_VIEW = 'switchboard.changedFiles';

interface Manifest {
  contributes?: { commands?: { command: string }[] };
}

export class LazyServices implements vscode.Disposable {
  private starting: Promise<SwitchboardApi> | undefined;
  private standIns: vscode.Disposable[] = [];
  private readonly chatView: vscode.Disposable;
  private readonly changedFiles: DeferredTreeData<unknown>;
  private readonly changedFilesView: vscode.TreeView<unknown>;
  /** Set once the services have started (deactivate stops their agents). */
  api: SwitchboardApi | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly logs: LogChannels,
  ) {
    const manifest = context.extension.packageJSON as Manifest;
    for (const { command } of manifest.contributes?.commands ?? []) {
      this.standIns.push(
        vscode.commands.registerCommand(command, async (...args: unknown[]) => {
          await this.services();
          // The services registered the real command in place of this one.
          return vscode.commands.executeCommand(command, ...args);
        }),
      );
    }
    this.changedFiles = new DeferredTreeData(() => void this.services().catch(() => undefined));
    // Kept for the window's life, like the chat view: the services connect its data (see DeferredTreeData).
    this.changedFilesView = vscode.window.createTreeView(CHANGED_FILES_VIEW, { treeDataProvider: this.changedFiles });
    // Kept for the window's life: the view stays with this registration; the services' ChatViewProvider fills it.
    this.chatView = vscode.window.registerWebviewViewProvider(
      CHAT_VIEW,
      { resolveWebviewView: async (view, resolveContext, token) => (await this.services()).chat.resolveWebviewView(view, resolveContext, token) },
      // The view restores from `init` + the webview's setState; no need to keep a hidden DOM alive.
      { webviewOptions: { retainContextWhenHidden: false } },
    );
  }

  /** The services, started on the first call; a failure is logged and shown once, then every call rejects with it. */
  services(): Promise<SwitchboardApi> {
    this.starting ??= this.start();
    return this.starting;
  }

  private async start(): Promise<SwitchboardApi> {
    const started = Date.now();
    try {
      const { startServices } = await import('./services');
      for (const d of this.standIns.splice(0)) d.dispose();
      this.api = startServices(this.context, this.logs, { view: this.changedFilesView, connect: (tree) => this.changedFiles.connect(tree) });
      this.logs.main.info(`Switchboard services started in ${Date.now() - started} ms`);
      return this.api;
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      this.logs.main.error(`Switchboard could not start: ${message}`);
      void vscode.window.showErrorMessage('Switchboard could not start. See the Switchboard output for details.', 'Show Log').then((c) => c && this.logs.main.show());
      throw error;
    }
  }

  dispose(): void {
    for (const d of this.standIns.splice(0)) d.dispose();
    this.chatView.dispose();
    this.changedFilesView.dispose();
    this.changedFiles.dispose();
  }
}
