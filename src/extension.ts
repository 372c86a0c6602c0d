// activate/deactivate only: the log channels and the registrations VS Code needs before Switchboard is used.
// Everything else loads on first use (src/host/startup), so activation stays small and fast (ARCHITECTURE.md, "What loads when").
import * as vscode from 'vscode';
import { LogChannels } from './host/log/logChannels';
import { LazyServices } from './host/startup/lazyServices';
import type { SwitchboardApi } from './host/startup/services';

export type { SwitchboardApi } from './host/startup/services';

/** What tests and other extensions reach through `extension.exports`. */
export interface SwitchboardExports {
  /** Starts the services on the first call (as opening the chat or running a command does). */
  services(): Promise<SwitchboardApi>;
}

let servicesForDeactivate: LazyServices | undefined;
/**
 * Not in context.subscriptions: VS Code disposes those as soon as it calls deactivate, while stopping the
 * agents still logs (a closed channel throws). Disposed at the end of deactivate instead.
 */
let logsForDeactivate: LogChannels | undefined;

export function activate(context: vscode.ExtensionContext): SwitchboardExports {
  const logs = (logsForDeactivate = new LogChannels());
  try {
    const services = (servicesForDeactivate = new LazyServices(context, logs));
    context.subscriptions.push(services);
    logs.main.info(`Switchboard ${String(context.extension.packageJSON.version)} activated in VS Code ${vscode.version}`);
    return { services: () => services.services() };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    logs.main.error(`Activation failed: ${message}`);
    void vscode.window.showErrorMessage('Switchboard could not start. See the Switchboard output for details.', 'Show Log').then((c) => c && logs.main.show());
    throw error;
  }
}

export async function deactivate(): Promise<void> {
  // Stop every agent (and its process tree) before the extension host goes away.
  const backend = servicesForDeactivate?.api?.backend;
  try {
    // From the services' module (loaded once the backend exists), so activation loads nothing more.
    if (backend) {
      const { shutDownAgents } = await import('./host/startup/services');
      await shutDownAgents(() => backend.dispose());
    }
  } finally {
    servicesForDeactivate = undefined;
    logsForDeactivate?.dispose();
    logsForDeactivate = undefined;
  }
}
