// Reads `switchboard.agents` / `switchboard.defaultAgent` live, honouring workspace trust and the user's
// confirmation of workspace-defined agents (WorkspaceSettingsGate), and reports each problem with a
// setting once (not on every read), naming the entry and what is wrong.
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mergeWithPresets, parseAgentSettings, type AgentConfigProblem, type AgentDefinition, type ResolvedAgentDefinition } from '../../../agents';
import { mergeRegistryAgents, registryDefinitions, resolveDefaultAgent, splitRegistryOverrides, type InstalledAgent } from '../../../agents/registry';
import type { WorkspaceSettingsGate } from '../../permissions/workspaceSettingsGate';

type Jsonc = typeof import('../../../agents/parseJsonc');

export interface AgentConfigurationSnapshot {
  agents: ResolvedAgentDefinition[];
  defaultAgent: string | undefined;
  problems: AgentConfigProblem[];
  /** True when workspace settings defined agents that restricted mode ignores. */
  ignoredUntrustedWorkspaceAgents: boolean;
}

/** The agents installed from the ACP Registry (see registry/registryService.ts). */
export interface InstalledAgentSource {
  readonly installed: readonly InstalledAgent[];
  readonly onDidChange: vscode.Event<void>;
}

export class AgentConfiguration implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly reported = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [this.changeEmitter];
  private current: AgentConfigurationSnapshot;
  private lastLogged = '';
  /** The JSONC parser, loaded in restricted mode only: there the folder's settings file is read (see read()). */
  private jsonc: Jsonc | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly gate: WorkspaceSettingsGate,
    private readonly registry?: InstalledAgentSource,
  ) {
    this.current = this.read();
    this.report(this.current);
    if (!vscode.workspace.isTrusted) {
      void import('../../../agents/parseJsonc').then(
        (jsonc) => {
          this.jsonc = jsonc;
          this.refresh();
        },
        (error: unknown) => log.warn(`could not load the JSONC parser: ${String(error)}`),
      );
    }
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('switchboard.agents') || e.affectsConfiguration('switchboard.defaultAgent')) this.refresh();
        else this.refreshIfChanged();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refresh()),
      gate.onDidChange(() => this.refresh()),
      ...(registry ? [registry.onDidChange(() => this.refresh())] : []),
    );
  }

  get snapshot(): AgentConfigurationSnapshot {
    return this.current;
  }

  find(name: string): ResolvedAgentDefinition | undefined {
    return this.current.agents.find((a) => a.name === name);
  }

  refresh(): void {
    this.apply(this.read());
  }

  private apply(next: AgentConfigurationSnapshot): void {
    this.current = next;
    this.report(next);
    this.changeEmitter.fire();
  }

  /**
   * Every configuration change carries the whole configuration to the extension host, and one can alter
   * ours without naming it: in a remote window VS Code ignores machine-scoped settings found in the local
   * user settings, but only once their schema is registered, in a change that names other keys. So any
   * change re-reads, and a different result counts as a change.
   */
  private refreshIfChanged(): void {
    const next = this.read();
    if (sameSettings(next, this.current)) return;
    this.log.info('the agent settings changed without a change event naming them; re-read');
    this.apply(next);
  }

  /** One log line per distinct set of configured agents, so a log shows what each window saw. */
  private logAgents(snapshot: AgentConfigurationSnapshot): void {
    const configured = snapshot.agents.filter((a) => a.source === 'settings' || a.source === 'registry').map((a) => a.name);
    const line = `agents from settings: ${configured.length ? configured.join(', ') : 'none'}; default: ${snapshot.defaultAgent ?? 'none'}`;
    if (line !== this.lastLogged) this.log.info(line);
    this.lastLogged = line;
  }

  private read(): AgentConfigurationSnapshot {
    const config = vscode.workspace.getConfiguration('switchboard');
    const trusted = vscode.workspace.isTrusted;
    const inspected = config.inspect<unknown>('agents');
    // A workspace's agents run only once the user confirmed them (the gate asks).
    const { user: userAgents, workspace: workspaceAgents } = this.gate.read<unknown>('agents');
    // Entries keyed by a registry agent's id tune that agent (see registryDefinitions.ts).
    const installed = this.registry?.installed ?? [];
    const userSplit = splitRegistryOverrides(userAgents, installed);
    const workspaceSplit = splitRegistryOverrides(workspaceAgents, installed);
    const user = parseAgentSettings(userSplit.rest, 'user settings (switchboard.agents)');
    const workspace = parseAgentSettings(workspaceSplit.rest, 'workspace settings (switchboard.agents)');
    const registry = registryDefinitions(installed, new Map([...userSplit.overrides, ...workspaceSplit.overrides]));
    // Workspace entries override user entries of the same name, as VS Code merges objects.
    const byName = new Map<string, AgentDefinition>();
    for (const agent of [...user.agents, ...workspace.agents]) byName.set(agent.name, agent);
    // In restricted mode VS Code may already hide the workspace value from inspect(); the folder's
    // settings file tells whether there was something to ignore (and so to explain).
    const ignoredUntrustedWorkspaceAgents =
      !trusted &&
      (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined || (this.jsonc !== undefined && workspaceSettingsDefineAgents(this.jsonc)));
    const agents = mergeRegistryAgents(mergeWithPresets([...byName.values()]), registry.agents);
    const inspectedDefault = config.inspect<string>('defaultAgent');
    const resolve = (name: unknown): string | undefined => (typeof name === 'string' && name.trim() ? resolveDefaultAgent(name.trim(), installed) : undefined);
    const workspaceDefault = resolve(trusted ? (inspectedDefault?.workspaceFolderValue ?? inspectedDefault?.workspaceValue) : undefined);
    // A workspace's default applies when it names an agent that is there: not one still waiting for confirmation.
    const waiting = workspaceDefault !== undefined && !agents.some((a) => a.name === workspaceDefault) && workspaceDefines(inspected, workspaceDefault);
    return {
      agents,
      defaultAgent: (waiting ? undefined : workspaceDefault) ?? resolve(inspectedDefault?.globalValue),
      problems: [...user.problems, ...workspace.problems, ...registry.problems],
      ignoredUntrustedWorkspaceAgents,
    };
  }

  /** Each distinct problem is shown once per window; the log keeps every one. */
  private report(snapshot: AgentConfigurationSnapshot): void {
    this.logAgents(snapshot);
    const fresh = snapshot.problems.filter((p) => !this.reported.has(p.message));
    for (const p of fresh) {
      this.reported.add(p.message);
      this.log.warn(p.message);
    }
    if (fresh.length > 0) {
      const text =
        fresh.length === 1
          ? `Switchboard: ${fresh[0].message}`
          : `Switchboard: ${fresh.length} agent entries in switchboard.agents were ignored. ${fresh.map((p) => p.message).join(' ')}`;
      void vscode.window.showWarningMessage(text, 'Open Settings').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettingsJson');
      });
    }
    if (snapshot.defaultAgent && !snapshot.agents.some((a) => a.name === snapshot.defaultAgent)) {
      const message = `switchboard.defaultAgent is "${snapshot.defaultAgent}", which is neither a key of switchboard.agents nor a built-in preset.`;
      if (!this.reported.has(message)) {
        this.reported.add(message);
        this.log.warn(message);
        void vscode.window.showWarningMessage(`Switchboard: ${message}`);
      }
    }
    const untrusted = 'untrusted';
    if (snapshot.ignoredUntrustedWorkspaceAgents && !this.reported.has(untrusted)) {
      this.reported.add(untrusted);
      const message =
        'This workspace is not trusted, so Switchboard ignores the agents defined in its settings (an agent is a program that runs on your machine). Trust the workspace to use them.';
      this.log.warn(message);
      void vscode.window.showWarningMessage(`Switchboard: ${message}`, 'Manage Workspace Trust').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
      });
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function sameSettings(a: AgentConfigurationSnapshot, b: AgentConfigurationSnapshot): boolean {
  return (
    a.defaultAgent === b.defaultAgent &&
    a.ignoredUntrustedWorkspaceAgents === b.ignoredUntrustedWorkspaceAgents &&
    JSON.stringify(a.agents) === JSON.stringify(b.agents)
  );
}

/** True when the workspace's own `switchboard.agents` value (confirmed or not) has an entry `name`. */
function workspaceDefines(inspected: { workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined, name: string): boolean {
  const value = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
  return typeof value === 'object' && value !== null && name in value;
}

function workspaceSettingsDefineAgents({ parseJsonc }: Jsonc): boolean {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    try {
      const text = fs.readFileSync(path.join(folder.uri.fsPath, '.vscode', 'settings.json'), 'utf8');
      const parsed = parseJsonc(text);
      const value = parsed.ok ? parsed.value : undefined;
      if (typeof value === 'object' && value !== null && 'switchboard.agents' in value) return true;
    } catch {
      // No settings file.
    }
  }
  return false;
}
