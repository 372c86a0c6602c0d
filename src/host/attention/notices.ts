// The attention notifications. VS Code cannot close a notification by API, except one that shows progress:
// so each is a cancellable progress notification that ends when its wait is over (answered elsewhere, the
// session seen or closed), its bar still (determinate at 0 %). Its "Show" is a command link in the message; its
// Cancel button dismisses it.
import * as vscode from 'vscode';
import { type Wait, waitMessage } from './waits';

interface Notice {
  wait: Wait;
  close(): void;
}

export class AttentionNotices implements vscode.Disposable {
  private readonly open = new Map<string, Notice>();

  constructor(private readonly showCommand: string) {}

  waitOf(key: string): Wait | undefined {
    return this.open.get(key)?.wait;
  }

  /** One notification per key: a new wait of a session replaces the one before. */
  show(wait: Wait): void {
    this.close(wait.key);
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const notice: Notice = { wait, close };
    this.open.set(wait.key, notice);
    const link = `command:${this.showCommand}?${encodeURIComponent(JSON.stringify([wait.key]))}`;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `${waitMessage(wait)} [Show](${link})`, cancellable: true },
      (progress, token) =>
        new Promise<void>((resolve) => {
          // A determinate bar at 0 % stands still (VS Code draws a 1 % sliver); without a report it animates an
          // endless bar, every frame, for as long as the notice is on screen.
          progress.report({ increment: 0 });
          token.onCancellationRequested(() => resolve());
          void closed.then(() => resolve());
        }),
    ).then(() => {
      if (this.open.get(wait.key) === notice) this.open.delete(wait.key);
    });
  }

  close(key: string): void {
    const notice = this.open.get(key);
    if (!notice) return;
    this.open.delete(key);
    notice.close();
  }

  dispose(): void {
    for (const key of [...this.open.keys()]) this.close(key);
  }
}
