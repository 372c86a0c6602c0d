/**
 * `switchboard.autoApprove`: permission requests answered without asking. Pure (no `vscode`).
 *
 * Shape: tool kind -> boolean for every agent, or agent display name -> { tool kind -> boolean } for one
 * agent; the agent's entry wins over the global one, so `{"execute": true, "Codex": {"execute": false}}`
 * lets every agent but Codex run commands. `"*"` as a kind matches every kind. A request whose tool call
 * has no kind counts as kind "other". Only `true` approves; anything else asks.
 *
 * The rules come in layers: the user's settings, and a workspace's value only once the user confirmed it
 * (workspaceSettingsGate.ts). A workspace rule wins over a user rule at the same level, as VS Code merges
 * settings; an agent's own rule in either layer wins over a global one. Each match names its layer.
 */
import type { PermissionOption } from '../../acp';

export type AutoApproveConfig = Readonly<Record<string, unknown>>;

/** Where a layer of rules was set: user (or remote machine) settings, or workspace settings the user confirmed. */
export type SettingSource = 'user' | 'workspace';

export interface AutoApproveLayer {
  config: AutoApproveConfig | undefined;
  source: SettingSource;
}

export interface AutoApproveMatch {
  kind: string;
  /** The agent whose own entry applied; undefined for a global rule. */
  agent?: string;
  /** The settings the rule came from. */
  source: SettingSource;
  /** The option chosen on the user's behalf. */
  optionId: string;
  optionName: string;
  /** For the UI, e.g. `Auto-approved: "read" is allowed for every agent (switchboard.autoApprove in user settings)`. */
  description: string;
}

type Verdict = { allowed: boolean; agent?: string; source: SettingSource } | undefined;

function isTable(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The rule that decides this kind for this agent: agent-specific first, then global; at each level the
 * later layer (workspace) first. Undefined when none applies.
 */
export function ruleFor(layers: readonly AutoApproveLayer[], kind: string, agent: string | undefined): Verdict {
  const tables = [...layers].reverse().filter((l): l is { config: AutoApproveConfig; source: SettingSource } => isTable(l.config));
  const agentTables = agent === undefined ? [] : tables.flatMap(({ config, source }) => (isTable(config[agent]) ? [{ config: config[agent] as AutoApproveConfig, source }] : []));
  // The exact kind before "*", across the layers, as one merged object would answer.
  for (const [level, who] of [[agentTables, agent], [tables, undefined]] as const) {
    for (const key of [kind, '*']) {
      for (const { config, source } of level) {
        const v = config[key];
        if (typeof v === 'boolean') return { allowed: v, ...(who !== undefined ? { agent: who } : {}), source };
      }
    }
  }
  return undefined;
}

/** Prefer "allow once": an auto-approval should not grant the agent a standing permission. */
export function pickAllowOption(options: readonly PermissionOption[]): PermissionOption | undefined {
  return options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always');
}

export function matchAutoApprove(
  layers: readonly AutoApproveLayer[],
  toolKind: string | null | undefined,
  agent: string | undefined,
  options: readonly PermissionOption[],
): AutoApproveMatch | undefined {
  const kind = toolKind || 'other';
  const rule = ruleFor(layers, kind, agent);
  if (!rule?.allowed) return undefined;
  const option = pickAllowOption(options);
  if (!option) return undefined;
  const who = rule.agent !== undefined ? `for ${rule.agent}` : 'for every agent';
  return {
    kind,
    ...(rule.agent !== undefined ? { agent: rule.agent } : {}),
    source: rule.source,
    optionId: option.optionId,
    optionName: option.name,
    description: `Auto-approved: "${kind}" is allowed ${who} (switchboard.autoApprove in ${rule.source === 'user' ? 'your user settings' : 'workspace settings you confirmed'})`,
  };
}
