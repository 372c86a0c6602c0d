/**
 * Whether a workspace's value of a powerful setting grants anything, and a stable hash of the value so a
 * confirmation covers exactly that value. Pure (node `crypto` only, no `vscode`). The words a question
 * uses are in settingsConsentText.ts, loaded when one is asked.
 *
 * A value that grants nothing (an auto-approve table of `false`s, `fileAccess: "deny"`) needs no
 * confirmation: restricting is always safe.
 */
import { createHash } from 'node:crypto';

/** The settings a workspace can only set with the user's confirmation; `vscodeMcpServers` are the
 * workspace's own `mcp.servers` and `.vscode/mcp.json` servers, passed on with `useVSCodeMcpServers`. */
export type GatedSetting =
  | 'autoApprove'
  | 'fileAccess'
  | 'agents'
  | 'mcpServers'
  | 'registry.url'
  | 'useVSCodeMcpServers'
  | 'vscodeMcpServers'
  | 'instructions'
  | 'instructionsFile';

/** JSON with object keys sorted, so equal values hash equal whatever order their keys were written in. */
export function canonicalJson(value: unknown): string {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
    if (seen.has(v)) return '[cycle]';
    seen.add(v);
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = walk((v as Record<string, unknown>)[k]);
    return out;
  };
  return JSON.stringify(walk(value)) ?? 'undefined';
}

export function valueHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

export function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function allowsAnyKind(table: Record<string, unknown>): boolean {
  return Object.values(table).some((v) => v === true || (isTable(v) && Object.values(v).some((k) => k === true)));
}

/** False for a value that only restricts (or is empty): it applies without asking. */
export function grantsSomething(key: GatedSetting, value: unknown): boolean {
  switch (key) {
    case 'autoApprove':
      return isTable(value) && allowsAnyKind(value);
    case 'fileAccess':
      return value === 'allow';
    case 'agents':
    case 'mcpServers':
      return isTable(value) && Object.keys(value).length > 0;
    case 'vscodeMcpServers':
      return Array.isArray(value) && value.length > 0;
    case 'registry.url':
    case 'instructions':
    case 'instructionsFile':
      return typeof value === 'string' && value.trim() !== '';
    case 'useVSCodeMcpServers':
      return value === true;
  }
}

