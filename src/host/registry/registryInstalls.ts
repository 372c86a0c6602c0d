// Installing, updating and uninstalling registry agents for RegistryService: the installer for this
// machine (downloads, archives), and the check that an npx or uvx agent's runtime is on the user's
// login-shell PATH. RegistryService loads this on the first install, update or uninstall; listing the
// installed agents at startup does not need it.
import type * as vscode from 'vscode';
import { CommandNotFoundError, getPathFromEnv, resolveCommand, type LoginShellEnvironmentCache } from '../../agents';
import {
  InstallError,
  RegistryInstaller,
  registryInstallHint,
  registryPlatform,
  type FetchLike,
  type InstalledAgent,
  type InstallPlan,
  type InstallStep,
  type RegistryAgent,
  type RegistryLoad,
} from '../../agents/registry';

export interface RegistryInstallsOptions {
  /** `<global storage>/agents`. */
  readonly root: string;
  readonly fetch: FetchLike;
  readonly log: vscode.LogOutputChannel;
  readonly shellEnvironment: LoginShellEnvironmentCache;
}

export class RegistryInstalls {
  private readonly installer: RegistryInstaller;

  constructor(private readonly options: RegistryInstallsOptions) {
    this.installer = new RegistryInstaller({ root: options.root, fetch: options.fetch, platform: registryPlatform(), isWindows: process.platform === 'win32' });
  }

  /** How `agent` installs on this machine. */
  plan(agent: RegistryAgent): InstallPlan {
    return this.installer.plan(agent);
  }

  /**
   * Installs (or updates) `agent` from the list `load` came from: checks that npx or uvx is there, then
   * downloads what a binary needs.
   */
  async install(agent: RegistryAgent, load: RegistryLoad, signal?: AbortSignal, onProgress?: (step: InstallStep) => void): Promise<InstalledAgent> {
    const plan = this.installer.plan(agent);
    if (plan.kind === 'npx' || plan.kind === 'uvx') {
      const missing = await this.missingRuntime(plan.kind, agent.name);
      if (missing) throw new InstallError(missing);
    }
    const record = await this.installer.install({ agent, registryUrl: load.url, ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) });
    this.options.log.info(`registry: installed ${agent.id} ${agent.version} (${record.kind}: ${record.command})`);
    return record;
  }

  async uninstall(id: string): Promise<void> {
    const removed = await this.installer.uninstall(id);
    this.options.log.info(`registry: uninstalled ${id}${removed ? ` ${removed.version}` : ''}`);
  }

  /** Undefined when `kind`'s runtime (npx, uvx) is on the user's PATH, else what to do about it. */
  private async missingRuntime(kind: 'npx' | 'uvx', agentName: string): Promise<string | undefined> {
    const shell = await this.options.shellEnvironment.get();
    try {
      resolveCommand(kind, getPathFromEnv(shell.env) ?? getPathFromEnv(process.env));
      return undefined;
    } catch (error) {
      if (!(error instanceof CommandNotFoundError)) throw error;
      return `${agentName} runs with ${kind}, which is not on your PATH. ${registryInstallHint(kind)}`;
    }
  }
}
