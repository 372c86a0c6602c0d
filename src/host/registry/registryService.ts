// The ACP Registry inside VS Code: where its files live (the extension's global storage, shared by every
// window), which registry URL counts (workspace trust), and the installed agents as a live list for
// AgentConfiguration. Installing, updating and uninstalling (registryInstalls.ts, with the download and
// archive code) load on first use.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoginShellEnvironmentCache } from '../../agents';
import {
  DEFAULT_REGISTRY_URL,
  InstalledAgents,
  removeLeftovers,
  type RegistryClient,
  type FetchLike,
  type InstalledAgent,
  type InstallStep,
  type RegistryAgent,
  type RegistryLoad,
} from '../../agents/registry';
import type { WorkspaceSettingsGate } from '../permissions/workspaceSettingsGate';
import type { InstalledAgentSource } from '../agents/configuration/agentConfiguration';
import type { RegistryInstalls } from './registryInstalls';

const loadInstalls = () => import('./registryInstalls');
/** The registry's list (its HTTP client and schema) loads when it is first read: an update check, the picker. */
const loadClient = () => import('../../agents/registry/registryClient');

export interface RegistryServiceOptions {
  /** The extension's global storage folder. */
  readonly storage: string;
  readonly log: vscode.LogOutputChannel;
  readonly shellEnvironment: LoginShellEnvironmentCache;
  /** Which workspace settings apply (trusted and confirmed by the user). */
  readonly settingsGate: WorkspaceSettingsGate;
  readonly fetch?: FetchLike;
}

export class RegistryService implements InstalledAgentSource, vscode.Disposable {
  readonly fetch: FetchLike;
  private clientLoad: Promise<RegistryClient> | undefined;
  readonly iconFolder: string;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly disposables: vscode.Disposable[] = [this.changeEmitter];
  /** `<global storage>/agents`: the installed agents and their record. */
  private readonly root: string;
  private readonly record: InstalledAgents;
  private current: InstalledAgent[];
  private installsLoad: Promise<RegistryInstalls> | undefined;

  constructor(private readonly options: RegistryServiceOptions) {
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.root = path.join(options.storage, 'agents');
    this.record = new InstalledAgents(this.root);
    this.iconFolder = path.join(options.storage, 'registry', 'icons');
    this.current = this.record.listSync();
    // Another window may install or remove agents: the record file is shared.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(this.root), 'installed.json'));
    this.disposables.push(watcher, watcher.onDidChange(() => this.reload()), watcher.onDidCreate(() => this.reload()), watcher.onDidDelete(() => this.reload()));
    void this.record
      .list()
      .then((records) => removeLeftovers(this.root, records))
      .catch((error: unknown) => options.log.warn(`registry: could not remove leftovers: ${String(error)}`));
  }

  get installed(): readonly InstalledAgent[] {
    return this.current;
  }

  find(id: string): InstalledAgent | undefined {
    return this.current.find((a) => a.id === id);
  }

  /** Re-reads the record; tells AgentConfiguration when something changed. */
  reload(): void {
    const next = this.record.listSync();
    if (JSON.stringify(next) === JSON.stringify(this.current)) return;
    this.current = next;
    this.changeEmitter.fire();
  }

  /**
   * `switchboard.registry.url`, as `switchboard.agents`: a workspace cannot point Switchboard at a list of
   * its choosing unless it is trusted and the user confirmed that URL.
   */
  registryUrl(): string {
    const value = this.options.settingsGate.effective<unknown>('registry.url');
    return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_REGISTRY_URL;
  }

  /** The registry list, logging the agents it left out. */
  async load(signal?: AbortSignal): Promise<RegistryLoad> {
    const url = this.registryUrl();
    this.clientLoad ??= loadClient().then(({ RegistryClient }) => new RegistryClient({ fetch: this.fetch, cacheFile: path.join(this.options.storage, 'registry', 'registry-cache.json') }));
    const load = await (await this.clientLoad).load(url, signal);
    for (const problem of load.problems) this.options.log.warn(`registry ${url}: ${problem}`);
    if (load.networkError) this.options.log.warn(`registry: using the copy saved ${new Date(load.fetchedAt).toISOString()}: ${load.networkError}`);
    return load;
  }

  /** Installing and uninstalling, loaded on first use. */
  installs(): Promise<RegistryInstalls> {
    this.installsLoad ??= loadInstalls().then(({ RegistryInstalls }) => new RegistryInstalls({ root: this.root, fetch: this.fetch, log: this.options.log, shellEnvironment: this.options.shellEnvironment }));
    return this.installsLoad;
  }

  /**
   * Installs (or updates) `agent` from the list `load` came from (see RegistryInstalls.install). The agent
   * joins the picker when this resolves.
   */
  async install(agent: RegistryAgent, load: RegistryLoad, signal?: AbortSignal, onProgress?: (step: InstallStep) => void): Promise<InstalledAgent> {
    const record = await (await this.installs()).install(agent, load, signal, onProgress);
    this.reload();
    return record;
  }

  async uninstall(id: string): Promise<void> {
    await (await this.installs()).uninstall(id);
    this.reload();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
