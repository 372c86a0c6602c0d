// Registers the registry commands and the update check that runs once the window has started. The list
// of the registry's agents (registryPicker.ts) and the install flow behind it load when the command runs.
import * as vscode from 'vscode';
import { errorMessage } from '../../acp';
import type { RegistryUiDeps } from './installFlow';
import type { UpdateNotifier } from './updateCheck';

const loadPicker = () => import('./registryPicker');

export function registerRegistryCommands(deps: RegistryUiDeps): vscode.Disposable[] {
  // The check (and the registry's list with it) loads after the services start, when an agent from the registry is installed.
  let notifier: Promise<UpdateNotifier> | undefined;
  const updates = () => (notifier ??= import('./updateCheck').then(({ UpdateNotifier }) => new UpdateNotifier(deps)));
  const guarded = (run: () => Promise<void>) => async () => {
    try {
      await run();
    } catch (error) {
      deps.log.error(`registry: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(`Switchboard: ${errorMessage(error)}`);
    }
  };
  if (deps.service.installed.length > 0) void updates().then((u) => u.check()).catch((error: unknown) => deps.log.warn(`registry: update check failed: ${errorMessage(error)}`));
  return [
    vscode.commands.registerCommand('switchboard.addAgentFromRegistry', guarded(async () => (await loadPicker()).addAgentFromRegistry(deps))),
    vscode.commands.registerCommand('switchboard.checkAgentUpdates', guarded(async () => (await updates()).check(true))),
  ];
}
