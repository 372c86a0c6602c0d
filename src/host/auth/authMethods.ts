// Classifies the auth methods an agent advertises (with -32000 or in `initialize`) into the flows the
// client can run. Pure: no `vscode`, unit-tested in Node. Unknown shapes fall back to `agent` so the
// user is never left at a dead end.

export interface EnvVarSpec {
  name: string;
  label?: string;
  /** false for values that may be shown (e.g. a region); secrets are the default. */
  secret: boolean;
  optional: boolean;
}

export type AuthFlow =
  | {
      type: 'agent';
      id: string;
      name: string;
      description?: string;
      /** The method wants a key passed with authenticate as `_meta["api-key"]` (Gemini CLI's convention). */
      apiKey?: { provider?: string };
    }
  | {
      type: 'terminal';
      id: string;
      name: string;
      description?: string;
      /** Run this instead of the agent's own command (the `_meta` hint may name one). */
      command?: string;
      args: string[];
      env: Record<string, string>;
    }
  | { type: 'env_var'; id: string; name: string; description?: string; vars: EnvVarSpec[]; link?: string };

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const obj = record(value);
  if (obj) for (const [k, v] of Object.entries(obj)) if (typeof v === 'string') out[k] = v;
  return out;
}

function envVars(value: unknown): EnvVarSpec[] {
  if (!Array.isArray(value)) return [];
  const vars: EnvVarSpec[] = [];
  for (const item of value) {
    if (typeof item === 'string') {
      vars.push({ name: item, secret: true, optional: false });
      continue;
    }
    const obj = record(item);
    const name = obj && str(obj.name);
    if (!obj || !name) continue;
    vars.push({ name, label: str(obj.label), secret: obj.secret !== false, optional: obj.optional === true });
  }
  return vars;
}

/** The `_meta` hint some agents use instead of a `terminal` method: `{"terminal-auth": {command?, args, env?, label?}}`. */
function terminalHint(
  meta: Record<string, unknown> | undefined,
): { command?: string; args: string[]; env: Record<string, string> } | undefined {
  const hint = meta && record(meta['terminal-auth']);
  if (!hint) return undefined;
  return { command: str(hint.command), args: stringArray(hint.args), env: stringMap(hint.env) };
}

export function classifyAuthMethods(methods: readonly unknown[]): AuthFlow[] {
  const flows: AuthFlow[] = [];
  for (const raw of methods) {
    const m = record(raw);
    const id = m && (str(m.id) ?? (typeof m.id === 'number' ? String(m.id) : undefined));
    if (!m || !id) continue;
    const name = str(m.name) ?? id;
    const description = str(m.description);
    const type = str(m.type);
    const meta = record(m._meta);
    const hint = terminalHint(meta);
    if (type === 'terminal') {
      flows.push({ type: 'terminal', id, name, description, args: stringArray(m.args), env: stringMap(m.env) });
    } else if ((type === undefined || type === 'agent') && meta && str(meta.type) === 'terminal') {
      // Qwen Code 0.24 puts the terminal method's type and args in `_meta` (no type reads as agent).
      flows.push({ type: 'terminal', id, name, description, args: stringArray(meta.args), env: stringMap(meta.env) });
    } else if (type === 'env_var') {
      // Earlier drafts of the auth-methods RFD used a single `varName`.
      const vars = envVars(m.vars ?? (str(m.varName) ? [m.varName] : []));
      flows.push({ type: 'env_var', id, name, description, vars, link: str(m.link) });
    } else if (hint) {
      flows.push({ type: 'terminal', id, name, description, command: hint.command, args: hint.args, env: hint.env });
    } else {
      const apiKey = record(meta?.['api-key']);
      flows.push(apiKey ? { type: 'agent', id, name, description, apiKey: { provider: str(apiKey.provider) } } : { type: 'agent', id, name, description });
    }
  }
  return flows;
}
