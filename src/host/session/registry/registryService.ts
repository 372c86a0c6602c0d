// The ACP Registry inside VS Code: where its files live (the extension's global storage, shared by every
// window), which registry URL counts (workspace trust), the installed agents as a live list for
// AgentConfiguration, and the runtime checks (npx, uvx) that need the user's login-shell PATH.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CommandNotFoundError, getPathFromEnv, resolveCommand, type LoginShellEnvironmentCache } from '../../../agents';
import {
  DEFAULT_REGISTRY_URL,
  RegistryClient,
  RegistryInstaller,
  registryInstallHint,
  registryPlatform,
  InstallError,
  type FetchLike,
  type InstalledAgent,
  type InstallStep,
  type RegistryAgent,
  type RegistryLoad,
} from '../../../agents/registry';
import type { InstalledAgentSource } from '../agentConfiguration';

export interface RegistryServiceOptions {
  /** The extension's global storage folder. */
  readonly storage: string;
  readonly log: vscode.LogOutputChannel;
  readonly shellEnvironment: LoginShellEnvironmentCache;
  readonly fetch?: FetchLike;
}

export class RegistryService implements InstalledAgentSource, vscode.Disposable {
  readonly installer: RegistryInstaller;
  readonly fetch: FetchLike;
  readonly client: RegistryClient;
  readonly iconFolder: string;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly disposables: vscode.Disposable[] = [this.changeEmitter];
  private current: InstalledAgent[];

  constructor(private readonly options: RegistryServiceOptions) {
    const fetchFn = (this.fetch = options.fetch ?? ((url, init) => fetch(url, init)));
    const root = path.join(options.storage, 'agents');
    this.installer = new RegistryInstaller({ root, fetch: fetchFn, platform: registryPlatform(), isWindows: process.platform === 'win32' });
    this.client = new RegistryClient({ fetch: fetchFn, cacheFile: path.join(options.storage, 'registry', 'registry-cache.json') });
    this.iconFolder = path.join(options.storage, 'registry', 'icons');
    this.current = this.installer.installed.listSync();
    // Another window may install or remove agents: the record file is shared.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), 'installed.json'));
    this.disposables.push(watcher, watcher.onDidChange(() => this.reload()), watcher.onDidCreate(() => this.reload()), watcher.onDidDelete(() => this.reload()));
    void this.installer.cleanup().catch((error: unknown) => options.log.warn(`registry: could not remove leftovers: ${String(error)}`));
  }

  get installed(): readonly InstalledAgent[] {
    return this.current;
  }

  find(id: string): InstalledAgent | undefined {
    return this.current.find((a) => a.id === id);
  }

  /** Re-reads the record; tells AgentConfiguration when something changed. */
  reload(): void {
    const next = this.installer.installed.listSync();
    if (JSON.stringify(next) === JSON.stringify(this.current)) return;
    this.current = next;
    this.changeEmitter.fire();
  }

  /**
   * `switchboard.registry.url`, honouring workspace trust as `switchboard.agents` does: an untrusted
   * workspace cannot point Switchboard at a list of its choosing.
   */
  registryUrl(): string {
    const inspected = vscode.workspace.getConfiguration('switchboard').inspect<string>('registry.url');
    const trusted = vscode.workspace.isTrusted;
    const value = (trusted ? (inspected?.workspaceFolderValue ?? inspected?.workspaceValue) : undefined) ?? inspected?.globalValue;
    return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_REGISTRY_URL;
  }

  /** The registry list, logging the agents it left out. */
  async load(signal?: AbortSignal): Promise<RegistryLoad> {
    const url = this.registryUrl();
    const load = await this.client.load(url, signal);
    for (const problem of load.problems) this.options.log.warn(`registry ${url}: ${problem}`);
    if (load.networkError) this.options.log.warn(`registry: using the copy saved ${new Date(load.fetchedAt).toISOString()}: ${load.networkError}`);
    return load;
  }

  /**
   * Installs (or updates) `agent` from the list `load` came from: checks that npx or uvx is there, then
   * downloads what a binary needs. The agent joins the picker when this resolves.
   */
  async install(agent: RegistryAgent, load: RegistryLoad, signal?: AbortSignal, onProgress?: (step: InstallStep) => void): Promise<InstalledAgent> {
    const plan = this.installer.plan(agent);
    if (plan.kind === 'npx' || plan.kind === 'uvx') {
      const missing = await this.missingRuntime(plan.kind, agent.name);
      if (missing) throw new InstallError(missing);
    }
    const record = await this.installer.install({ agent, registryUrl: load.url, ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) });
    this.options.log.info(`registry: installed ${agent.id} ${agent.version} (${record.kind}: ${record.command})`);
    this.reload();
    return record;
  }

  async uninstall(id: string): Promise<void> {
    const removed = await this.installer.uninstall(id);
    this.options.log.info(`registry: uninstalled ${id}${removed ? ` ${removed.version}` : ''}`);
    this.reload();
  }

  /** Undefined when `kind`'s runtime (npx, uvx) is on the user's PATH, else what to do about it. */
  async missingRuntime(kind: 'npx' | 'uvx', agentName: string): Promise<string | undefined> {
    const shell = await this.options.shellEnvironment.get();
    try {
      resolveCommand(kind, getPathFromEnv(shell.env) ?? getPathFromEnv(process.env));
      return undefined;
    } catch (error) {
      if (!(error instanceof CommandNotFoundError)) throw error;
      return `${agentName} runs with ${kind}, which is not on your PATH. ${registryInstallHint(kind)}`;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
