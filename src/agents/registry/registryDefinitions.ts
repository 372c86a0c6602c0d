import type { AgentConfigProblem, ResolvedAgentDefinition } from '../agentDefinition';
import { isPlainObject, parseAgentEntry } from '../agentSettings';
import type { InstalledAgent } from './installedAgents';

/*
 * Installed registry agents as agent definitions. A `switchboard.agents` entry keyed by a registry id
 * overrides that agent's launch (args, env, defaultMode, …; `command` may be left out), so users tune a
 * registry agent the same way they tune any other.
 */

const INSTALL_HINTS: Readonly<Record<InstalledAgent['kind'], string>> = {
  npx: 'npx comes with Node.js: install Node.js from https://nodejs.org and restart VS Code.',
  uvx: 'uvx comes with uv: install uv from https://docs.astral.sh/uv/getting-started/installation/ and restart VS Code.',
  binary: 'Install it again with "Switchboard: Add Agent from Registry…".',
};

export function registryInstallHint(kind: InstalledAgent['kind']): string {
  return INSTALL_HINTS[kind];
}

/** Takes the entries keyed by an installed agent's id out of a `switchboard.agents` value. */
export function splitRegistryOverrides(value: unknown, installed: readonly InstalledAgent[]): { rest: unknown; overrides: Map<string, unknown> } {
  const overrides = new Map<string, unknown>();
  if (!isPlainObject(value)) return { rest: value, overrides };
  const ids = new Set(installed.map((a) => a.id));
  const rest: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (ids.has(key)) overrides.set(key, entry);
    else rest[key] = entry;
  }
  return { rest, overrides };
}

/** One definition per installed agent, with its settings override applied when it is valid. */
export function registryDefinitions(
  installed: readonly InstalledAgent[],
  overrides: ReadonlyMap<string, unknown>,
  settingName = 'switchboard.agents',
): { agents: ResolvedAgentDefinition[]; problems: AgentConfigProblem[] } {
  const agents: ResolvedAgentDefinition[] = [];
  const problems: AgentConfigProblem[] = [];
  for (const agent of installed) {
    const base = { command: agent.command, args: agent.args, env: agent.env };
    const override = overrides.get(agent.id);
    let entry: unknown = base;
    if (override !== undefined) {
      entry = isPlainObject(override)
        ? { ...base, ...override, env: isPlainObject(override.env) ? { ...agent.env, ...override.env } : (override.env ?? agent.env) }
        : override;
    }
    let result = parseAgentEntry(agent.name, entry);
    if (!result.ok) {
      problems.push({ entry: agent.id, message: `Agent "${agent.id}" in ${settingName} (settings for the registry agent ${agent.name}) was ignored: ${result.reason}.` });
      result = parseAgentEntry(agent.name, base);
    }
    if (!result.ok) continue;
    agents.push({ ...result.definition, source: 'registry', installHint: registryInstallHint(agent.kind), ...(agent.icon ? { icon: agent.icon } : {}) });
  }
  return { agents, problems };
}

/**
 * Adds registry agents to the presets and settings agents. One with a preset's name replaces that preset in
 * place (the user chose to install it); an entry in the settings with the same name wins over it.
 */
export function mergeRegistryAgents(merged: readonly ResolvedAgentDefinition[], registry: readonly ResolvedAgentDefinition[]): ResolvedAgentDefinition[] {
  const result = [...merged];
  for (const agent of registry) {
    const index = result.findIndex((a) => a.name === agent.name);
    if (index < 0) result.push(agent);
    else if (result[index].source === 'preset') result[index] = agent;
  }
  return result;
}

/** `switchboard.defaultAgent` may name a registry agent by its id. */
export function resolveDefaultAgent(name: string | undefined, installed: readonly InstalledAgent[]): string | undefined {
  return installed.find((a) => a.id === name)?.name ?? name;
}
