import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { planInstall, type InstallPlan } from './distribution';
import { downloadFile } from './download';
import { isInside, removeFolder, scratchFolder } from './agentFolders';
import { DEFAULT_EXTRACT_LIMITS, extractArchive, safeSegments, UnsafeArchiveError, type ExtractLimits } from './extract';
import { abortError, resolveHttpUrl, type FetchLike } from './http';
import { fetchIcon } from './icon';
import { InstalledAgents, type InstalledAgent } from './installedAgents';
import type { RegistryAgent, RegistryPlatform } from './registrySchema';

/*
 * Installs registry agents under `<root>/<id>/<version>/`. A binary is downloaded and unpacked into private
 * scratch folders and moved into place in one rename only when everything checked out, so a failure or a
 * cancel at any point leaves no trace of the new version (and the old one keeps working).
 */

export interface InstallerOptions {
  /** `<global storage>/agents`. */
  readonly root: string;
  readonly fetch: FetchLike;
  readonly platform: RegistryPlatform | undefined;
  readonly maxDownloadBytes?: number;
  readonly extractLimits?: ExtractLimits;
  readonly isWindows?: boolean;
  readonly now?: () => number;
}

export type InstallStep = { step: 'download'; received: number; total: number | undefined } | { step: 'extract' } | { step: 'finish' };

export interface InstallRequest {
  readonly agent: RegistryAgent;
  /** The registry's URL: relative archive and icon URLs resolve against it. */
  readonly registryUrl: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (step: InstallStep) => void;
}

/** An agent that cannot be installed as the registry describes it; the message says why. */
export class InstallError extends Error {
  override readonly name = 'InstallError';
}

export const DEFAULT_MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;

export class RegistryInstaller {
  readonly installed: InstalledAgents;

  constructor(private readonly options: InstallerOptions) {
    this.installed = new InstalledAgents(options.root);
  }

  plan(agent: RegistryAgent): InstallPlan {
    return planInstall(agent, this.options.platform);
  }

  async install(request: InstallRequest): Promise<InstalledAgent> {
    const { agent, signal } = request;
    const plan = this.plan(agent);
    if (plan.kind === 'unsupported') throw new InstallError(`${plan.reason}.`);
    const previous = await this.installed.get(agent.id);
    const icon = await fetchIcon(this.options.fetch, agent.icon, request.registryUrl, signal);
    if (signal?.aborted) throw abortError();
    const base = {
      id: agent.id,
      name: agent.name,
      version: agent.version,
      ...(agent.description ? { description: agent.description } : {}),
      ...(icon ? { icon } : {}),
      registryUrl: request.registryUrl,
      installedAt: (this.options.now ?? Date.now)(),
    };
    let record: InstalledAgent;
    if (plan.kind === 'npx') {
      record = { ...base, kind: 'npx', command: 'npx', args: ['-y', plan.spec.package, ...(plan.spec.args ?? [])], env: { ...plan.spec.env } };
    } else if (plan.kind === 'uvx') {
      record = { ...base, kind: 'uvx', command: 'uvx', args: [plan.spec.package, ...(plan.spec.args ?? [])], env: { ...plan.spec.env } };
    } else {
      const installed = await this.installBinary(request, plan);
      record = { ...base, kind: 'binary', ...installed, args: [...(plan.target.args ?? [])], env: { ...plan.target.env } };
    }
    await this.installed.put(record);
    // The previous version's files go only once the new record is in place.
    if (previous?.directory && previous.directory !== record.directory) await removeFolder(this.options.root, previous.directory);
    request.onProgress?.({ step: 'finish' });
    return record;
  }

  /** Removes the record and the agent's files. */
  async uninstall(id: string): Promise<InstalledAgent | undefined> {
    const removed = await this.installed.remove(id);
    await removeFolder(this.options.root, path.join(this.options.root, id));
    return removed;
  }

  private async installBinary(request: InstallRequest, plan: Extract<InstallPlan, { kind: 'binary' }>): Promise<{ command: string; directory: string }> {
    const { agent, signal } = request;
    const what = `the archive of ${agent.name} ${agent.version}`;
    const url = resolveHttpUrl(plan.target.archive, request.registryUrl, `The archive URL of ${agent.name}`);
    let cmd: string[];
    try {
      cmd = safeSegments(plan.target.cmd, `${agent.name}'s registry entry`, '"cmd"');
    } catch {
      throw new InstallError(`${agent.name}'s "cmd" (${JSON.stringify(plan.target.cmd)}) must be a relative path inside its archive.`);
    }
    if (cmd.length === 0) throw new InstallError(`${agent.name}'s "cmd" (${JSON.stringify(plan.target.cmd)}) names no file.`);
    const token = `${agent.id}-${randomBytes(6).toString('hex')}`;
    const download = path.join(scratchFolder(this.options.root, '.downloads'), token);
    const staging = path.join(scratchFolder(this.options.root, '.staging'), token);
    await fs.mkdir(path.dirname(download), { recursive: true });
    try {
      await downloadFile(url, download, what, {
        fetch: this.options.fetch,
        maxBytes: this.options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES,
        ...(plan.target.sha256 ? { sha256: plan.target.sha256 } : {}),
        ...(signal ? { signal } : {}),
        onProgress: (received, total) => request.onProgress?.({ step: 'download', received, total }),
      });
      request.onProgress?.({ step: 'extract' });
      await extractArchive(download, staging, what, this.options.extractLimits ?? DEFAULT_EXTRACT_LIMITS, signal);
      await fs.rm(download, { force: true });
      const command = path.join(staging, ...cmd);
      await this.checkCommand(staging, command, agent, plan.target.cmd);
      if (signal?.aborted) throw abortError();
      // The point of no return: one rename puts the new version in place.
      const folder = path.join(this.options.root, agent.id, agent.version);
      await fs.rm(folder, { recursive: true, force: true });
      await fs.mkdir(path.dirname(folder), { recursive: true });
      await fs.rename(staging, folder);
      return { command: path.join(folder, ...cmd), directory: folder };
    } finally {
      await fs.rm(download, { force: true });
      await fs.rm(staging, { recursive: true, force: true });
    }
  }

  private async checkCommand(staging: string, command: string, agent: RegistryAgent, cmd: string): Promise<void> {
    const stat = await fs.stat(command).catch(() => undefined);
    if (!stat?.isFile()) {
      throw new InstallError(`The archive of ${agent.name} ${agent.version} does not contain its command "${cmd}"; nothing was installed.`);
    }
    const real = await fs.realpath(command);
    if (!isInside(await fs.realpath(staging), real)) {
      throw new UnsafeArchiveError(`${agent.name}'s command "${cmd}" is a link to outside its folder; nothing was installed`);
    }
    if (!this.options.isWindows) await fs.chmod(real, stat.mode | 0o755);
  }
}
