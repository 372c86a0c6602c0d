/**
 * `switchboard.autoApprove`: permission requests answered without asking. Pure (no `vscode`).
 *
 * Shape: tool kind -> boolean for every agent, or agent display name -> { tool kind -> boolean } for one
 * agent; the agent's entry wins over the global one, so `{"execute": true, "Codex": {"execute": false}}`
 * lets every agent but Codex run commands. `"*"` as a kind matches every kind. A request whose tool call
 * has no kind counts as kind "other". Only `true` approves; anything else asks.
 */
import type { PermissionOption } from '../../acp';

export type AutoApproveConfig = Readonly<Record<string, unknown>>;

export interface AutoApproveMatch {
  kind: string;
  /** The agent whose own entry applied; undefined for a global rule. */
  agent?: string;
  /** The option chosen on the user's behalf. */
  optionId: string;
  optionName: string;
  /** For the UI, e.g. `Auto-approved: "read" is allowed for every agent (switchboard.autoApprove)`. */
  description: string;
}

type Verdict = { allowed: boolean; agent?: string } | undefined;

function lookup(table: Readonly<Record<string, unknown>>, kind: string): boolean | undefined {
  const v = table[kind] ?? table['*'];
  return typeof v === 'boolean' ? v : undefined;
}

function isTable(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The rule that decides this kind for this agent, agent-specific first; undefined when none applies. */
export function ruleFor(config: AutoApproveConfig | undefined, kind: string, agent: string | undefined): Verdict {
  if (!isTable(config)) return undefined;
  const agentTable = agent !== undefined ? config[agent] : undefined;
  if (agent !== undefined && isTable(agentTable)) {
    const v = lookup(agentTable, kind);
    if (v !== undefined) return { allowed: v, agent };
  }
  const v = lookup(config, kind);
  return v === undefined ? undefined : { allowed: v };
}

/** Prefer "allow once": an auto-approval should not grant the agent a standing permission. */
export function pickAllowOption(options: readonly PermissionOption[]): PermissionOption | undefined {
  return options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always');
}

export function matchAutoApprove(
  config: AutoApproveConfig | undefined,
  toolKind: string | null | undefined,
  agent: string | undefined,
  options: readonly PermissionOption[],
): AutoApproveMatch | undefined {
  const kind = toolKind || 'other';
  const rule = ruleFor(config, kind, agent);
  if (!rule?.allowed) return undefined;
  const option = pickAllowOption(options);
  if (!option) return undefined;
  const who = rule.agent !== undefined ? `for ${rule.agent}` : 'for every agent';
  return {
    kind,
    ...(rule.agent !== undefined ? { agent: rule.agent } : {}),
    optionId: option.optionId,
    optionName: option.name,
    description: `Auto-approved: "${kind}" is allowed ${who} (switchboard.autoApprove)`,
  };
}
