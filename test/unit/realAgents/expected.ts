// What the pinned real agents advertise offline (scripts/install-real-agents.mjs pins the versions).
// Measured against the packages themselves; when a pin is bumped, the version checks fail first and
// these lists must be re-measured, so a change in what an agent offers is always noticed.

export const CLAUDE_AGENT_ACP_VERSION = '0.23.1';
export const GEMINI_CLI_VERSION = '0.61.0';

export const CLAUDE = {
  /** initialize.authMethods when the client advertises terminal auth (Switchboard does). */
  authMethods: [{ id: 'claude-login', type: 'terminal' }],
  currentModeId: 'default',
  /** [id, name] of each mode, in the agent's order. */
  modes: [
    ['default', 'Default'],
    ['acceptEdits', 'Accept Edits'],
    ['plan', 'Plan Mode'],
    ['dontAsk', "Don't Ask"],
    ['bypassPermissions', 'Bypass Permissions'],
  ],
  modeIds: ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'],
  /** [id, category, kind, currentValue] of each config option, in the agent's order. */
  configOptions: [
    ['mode', 'mode', 'select', 'default'],
    ['model', 'model', 'select', 'default'],
  ],
  /** The legacy `models` list (the same ids as the `model` config option's values). */
  currentModelId: 'default',
  modelIds: ['default', 'sonnet[1m]', 'opus[1m]', 'haiku'],
} as const;

export const GEMINI = {
  /** [id, name, kind]: none has a `type`, so each is an `agent` method (call authenticate). */
  authMethods: [
    ['oauth-personal', 'Log in with Google', 'agent'],
    ['gemini-api-key', 'Gemini API key', 'agent'],
    ['vertex-ai', 'Vertex AI', 'agent'],
    ['gateway', 'AI API Gateway', 'agent'],
  ],
} as const;

/** Generous: the real agents load big bundles, and the machine is shared. Never a skip. */
export const REAL_AGENT_TIMEOUT_MS = 90_000;
