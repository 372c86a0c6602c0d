// The registry as the user reaches it: "Add Agent from Registry…" (the palette, or the chat's Agent picker
// through the same method), "Check for Agent Updates", and the update check that runs once the commands are
// registered. The list of the registry's agents (registryPicker.ts) and the install flow behind it load when
// first used. The user's "Start a session" with an installed agent is announced (onDidChooseSession): the
// chat, built after this, opens it.
import * as vscode from 'vscode';
import { errorMessage } from '../../acp';
import type { RegistryAgents, RegistryUiDeps } from './installFlow';
import type { RegistryService } from './registryService';
import type { UpdateNotifier } from './updateCheck';

const loadPicker = () => import('./registryPicker');

export interface RegistryUiOptions {
  readonly service: RegistryService;
  readonly log: vscode.LogOutputChannel;
  /** The agents' processes (an update takes effect on restart). */
  readonly agents: Omit<RegistryAgents, 'startSession'>;
}

export class RegistryUi implements vscode.Disposable {
  private readonly sessionChoices = new vscode.EventEmitter<string>();
  /** The user chose to start a session with an installed agent (by its display name). */
  readonly onDidChooseSession = this.sessionChoices.event;
  private readonly deps: RegistryUiDeps;
  /** The check (and the registry's list with it) loads when first needed. */
  private notifier: Promise<UpdateNotifier> | undefined;

  constructor(options: RegistryUiOptions) {
    const startSession = async (agentName: string) => this.sessionChoices.fire(agentName);
    this.deps = { service: options.service, log: options.log, agents: { ...options.agents, startSession } };
  }

  /** Opens the registry's list of agents; a failure is logged and shown once. */
  addAgent(): Promise<void> {
    return this.guarded(async () => (await loadPicker()).addAgentFromRegistry(this.deps));
  }

  /** The commands, and the update check when an agent from the registry is installed. */
  register(): vscode.Disposable[] {
    const { service, log } = this.deps;
    if (service.installed.length > 0) void this.updates().then((u) => u.check()).catch((error: unknown) => log.warn(`registry: update check failed: ${errorMessage(error)}`));
    return [
      vscode.commands.registerCommand('switchboard.addAgentFromRegistry', () => this.addAgent()),
      vscode.commands.registerCommand('switchboard.checkAgentUpdates', () => this.guarded(async () => (await this.updates()).check(true))),
    ];
  }

  dispose(): void {
    this.sessionChoices.dispose();
  }

  private updates(): Promise<UpdateNotifier> {
    this.notifier ??= import('./updateCheck').then(({ UpdateNotifier }) => new UpdateNotifier(this.deps));
    return this.notifier;
  }

  private async guarded(run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.deps.log.error(`registry: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(`Switchboard: ${errorMessage(error)}`);
    }
  }
}
