/**
 * The ACP Registry (pure Node, no `vscode`): the list's schema, fetching it with a cache, choosing how an
 * agent installs on this machine, downloading and unpacking safely, and the record of installed agents.
 */
export { removeLeftovers } from './agentFolders';
export { describePlan, planInstall, registryPlatform } from './distribution';
export type { InstallPlan } from './distribution';
export { ChecksumMismatchError } from './download';
export { UnsafeArchiveError } from './extract';
export { fetchIcon } from './icon';
export { formatBytes, isAbortError, RegistryHttpError } from './http';
export type { FetchLike } from './http';
export { InstalledAgents } from './installedAgents';
export type { InstalledAgent } from './installedAgents';
export { DEFAULT_MAX_DOWNLOAD_BYTES, InstallError, RegistryInstaller } from './installer';
export type { InstallRequest, InstallStep } from './installer';
export { mergeRegistryAgents, registryDefinitions, registryInstallHint, resolveDefaultAgent, splitRegistryOverrides } from './registryDefinitions';
export { RegistryClient, RegistryUnavailableError } from './registryClient';
export { DEFAULT_REGISTRY_URL } from './registryUrl';
export type { RegistryLoad } from './registryClient';
export { parseRegistry, parseRegistryText, REGISTRY_PLATFORMS } from './registrySchema';
export type { Registry, RegistryAgent, RegistryPlatform } from './registrySchema';
export { compareVersions, isNewer } from './version';
