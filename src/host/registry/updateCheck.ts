// Tells the user when the registry has a newer version of an agent they installed from it: once per
// version per window, with an Update button. Quiet when the registry cannot be reached (the list says so).
// The install flow loads when the user chooses Update.
import * as vscode from 'vscode';
import { errorMessage } from '../../acp';
import { isNewer, type InstalledAgent, type RegistryAgent, type RegistryLoad } from '../../agents/registry';
import type { RegistryUiDeps } from './installFlow';

const loadInstallFlow = () => import('./installFlow');

export interface AgentUpdate {
  readonly installed: InstalledAgent;
  readonly agent: RegistryAgent;
}

export function findUpdates(installed: readonly InstalledAgent[], load: RegistryLoad): AgentUpdate[] {
  return installed.flatMap((record) => {
    const agent = load.registry.agents.find((a) => a.id === record.id);
    return agent && isNewer(agent.version, record.version) ? [{ installed: record, agent }] : [];
  });
}

export class UpdateNotifier {
  private readonly announced = new Set<string>();

  constructor(private readonly deps: RegistryUiDeps) {}

  /** Checks the registry; `explicit` (the command) also reports "all up to date" and load errors. */
  async check(explicit = false): Promise<void> {
    const { service, log } = this.deps;
    if (service.installed.length === 0) {
      if (explicit) void vscode.window.showInformationMessage('Switchboard: no agents are installed from the registry.');
      return;
    }
    let load: RegistryLoad;
    try {
      load = await service.load();
    } catch (error) {
      log.warn(`registry: could not check for agent updates: ${errorMessage(error)}`);
      if (explicit) void vscode.window.showErrorMessage(`Switchboard: ${errorMessage(error)}`);
      return;
    }
    const updates = findUpdates(service.installed, load).filter((u) => explicit || !this.announced.has(`${u.agent.id}@${u.agent.version}`));
    if (explicit && updates.length === 0) {
      const offline = load.source === 'cache' ? ` (offline: checked against the list saved ${new Date(load.fetchedAt).toLocaleString()})` : '';
      void vscode.window.showInformationMessage(`Switchboard: your registry agents are up to date${offline}.`);
    }
    for (const update of updates) {
      this.announced.add(`${update.agent.id}@${update.agent.version}`);
      void this.offer(update, load);
    }
  }

  private async offer(update: AgentUpdate, load: RegistryLoad): Promise<void> {
    const action = 'Update';
    const choice = await vscode.window.showInformationMessage(
      `Switchboard: ${update.agent.name} ${update.agent.version} is available in the agent registry (you have ${update.installed.version}).`,
      action,
    );
    if (choice === action) await (await loadInstallFlow()).installWithProgress(this.deps, update.agent, load);
  }
}
