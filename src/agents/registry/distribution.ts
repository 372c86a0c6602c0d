import type { BinaryTarget, PackageDistribution, RegistryAgent, RegistryPlatform } from './registrySchema';
import { REGISTRY_PLATFORMS } from './registrySchema';

/** The registry's name for a Node platform and architecture, or undefined where the registry has none. */
export function registryPlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): RegistryPlatform | undefined {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
  const cpu = arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : undefined;
  if (!os || !cpu) return undefined;
  const key = `${os}-${cpu}`;
  return (REGISTRY_PLATFORMS as readonly string[]).includes(key) ? (key as RegistryPlatform) : undefined;
}

/** How an agent runs on this machine. */
export type InstallPlan =
  | { kind: 'binary'; platform: RegistryPlatform; target: BinaryTarget }
  | { kind: 'npx'; spec: PackageDistribution }
  | { kind: 'uvx'; spec: PackageDistribution }
  | { kind: 'unsupported'; reason: string };

/**
 * Picks the distribution for this machine: a binary built for it first (it needs nothing else installed
 * and does not fetch packages on every start), then npx (Node.js is the most common runtime), then uvx.
 */
export function planInstall(agent: RegistryAgent, platform: RegistryPlatform | undefined): InstallPlan {
  const { binary, npx, uvx } = agent.distribution;
  const target = platform ? binary?.[platform] : undefined;
  if (platform && target) return { kind: 'binary', platform, target };
  if (npx) return { kind: 'npx', spec: npx };
  if (uvx) return { kind: 'uvx', spec: uvx };
  const here = platform ?? `${process.platform}-${process.arch}`;
  const platforms = Object.keys(binary ?? {});
  if (platforms.length > 0) {
    return { kind: 'unsupported', reason: `${agent.name} has no build for this machine (${here}); it supports ${platforms.join(', ')}` };
  }
  const kinds = Object.keys(agent.distribution);
  return {
    kind: 'unsupported',
    reason: kinds.length
      ? `${agent.name} is distributed only as ${kinds.join(', ')}, which Switchboard cannot install (it installs npx, uvx and binary agents)`
      : `${agent.name} has no distribution in the registry`,
  };
}

/** One line for the list: how the agent installs on this machine. */
export function describePlan(plan: InstallPlan): string {
  switch (plan.kind) {
    case 'binary':
      return `download for ${plan.platform}`;
    case 'npx':
      return `npx ${plan.spec.package}`;
    case 'uvx':
      return `uvx ${plan.spec.package}`;
    case 'unsupported':
      return 'not available on this machine';
  }
}
