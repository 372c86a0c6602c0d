// Installing, updating and uninstalling a registry agent as the user sees it: a cancellable progress
// notification, one clear message for every way it can fail, and what to do next once it worked.
import * as vscode from 'vscode';
import { errorMessage } from '../../acp';
import { formatBytes, isAbortError, type InstalledAgent, type RegistryAgent, type RegistryLoad } from '../../agents/registry';
import type { RegistryService } from './registryService';

/** What the registry's UI asks of the agents and the chat (the session layer implements it). */
export interface RegistryAgents {
  /** Opens the chat and starts a session with the agent (by its display name). */
  startSession(agentName: string): Promise<void>;
  /** Whether the agent's process runs now (an update then takes effect on restart). */
  isRunning(agentName: string): boolean;
  restartAgent(agentName: string): Promise<void>;
}

export interface RegistryUiDeps {
  readonly service: RegistryService;
  readonly log: vscode.LogOutputChannel;
  readonly agents: RegistryAgents;
}

export async function installWithProgress(deps: RegistryUiDeps, agent: RegistryAgent, load: RegistryLoad): Promise<InstalledAgent | undefined> {
  const previous = deps.service.find(agent.id);
  const verb = previous ? 'Updating' : 'Installing';
  const plan = (await deps.service.installs()).plan(agent);
  if (plan.kind === 'unsupported') {
    void vscode.window.showErrorMessage(`Switchboard: ${plan.reason}.`);
    return undefined;
  }
  let record: InstalledAgent;
  try {
    record = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `${verb} ${agent.name} ${agent.version}`, cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        let reported = 0;
        try {
          return await deps.service.install(agent, load, controller.signal, (step) => {
            if (step.step === 'download') {
              const fraction = step.total ? Math.min(step.received / step.total, 1) : 0;
              const increment = Math.max(0, Math.floor(fraction * 90) - reported);
              reported += increment;
              progress.report({ increment, message: `downloading ${formatBytes(step.received)}${step.total ? ` of ${formatBytes(step.total)}` : ''}` });
            } else if (step.step === 'extract') {
              progress.report({ message: 'unpacking…' });
            }
          });
        } finally {
          subscription.dispose();
        }
      },
    );
  } catch (error) {
    if (isAbortError(error)) {
      deps.log.info(`registry: ${verb.toLowerCase()} ${agent.id} ${agent.version} was cancelled`);
      void vscode.window.showInformationMessage(`Switchboard: ${verb.toLowerCase()} ${agent.name} was cancelled; nothing was changed.`);
      return undefined;
    }
    const message = `Could not ${previous ? 'update' : 'install'} ${agent.name} ${agent.version}: ${errorMessage(error).replace(/\.$/, '')}.`;
    deps.log.error(`registry: ${message}`);
    void vscode.window.showErrorMessage(`Switchboard: ${message}`);
    return undefined;
  }
  void announceInstalled(deps, record, previous?.version);
  return record;
}

async function announceInstalled(deps: RegistryUiDeps, record: InstalledAgent, previousVersion: string | undefined): Promise<void> {
  const start = 'Start Session';
  const makeDefault = 'Make Default';
  const restart = 'Restart Agent';
  if (previousVersion && deps.agents.isRunning(record.name)) {
    // The running process is the old version until it restarts (which interrupts a turn in progress).
    const choice = await vscode.window.showInformationMessage(
      `Switchboard: ${record.name} was updated to ${record.version} (from ${previousVersion}). Restart the agent to use it in the open sessions.`,
      restart,
    );
    if (choice === restart) await deps.agents.restartAgent(record.name);
    return;
  }
  const what = previousVersion ? `was updated to ${record.version} (from ${previousVersion})` : `${record.version} is installed`;
  const choice = await vscode.window.showInformationMessage(`Switchboard: ${record.name} ${what}. It is in the chat's Agent picker.`, start, makeDefault);
  if (choice === start) await deps.agents.startSession(record.name);
  if (choice === makeDefault) await makeDefaultAgent(record);
}

export async function makeDefaultAgent(record: InstalledAgent): Promise<void> {
  await vscode.workspace.getConfiguration('switchboard').update('defaultAgent', record.name, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`Switchboard: new sessions now use ${record.name}.`);
}

export async function confirmUninstall(deps: RegistryUiDeps, record: InstalledAgent): Promise<void> {
  const uninstall = 'Uninstall';
  const detail = record.kind === 'binary' ? 'Its downloaded files are deleted.' : `Switchboard forgets it (${record.kind} keeps its own package cache).`;
  const choice = await vscode.window.showWarningMessage(`Uninstall ${record.name} ${record.version}?`, { modal: true, detail }, uninstall);
  if (choice !== uninstall) return;
  try {
    await deps.service.uninstall(record.id);
  } catch (error) {
    void vscode.window.showErrorMessage(`Switchboard: could not uninstall ${record.name}: ${errorMessage(error)}`);
    return;
  }
  void vscode.window.showInformationMessage(`Switchboard: ${record.name} was uninstalled.`);
}
