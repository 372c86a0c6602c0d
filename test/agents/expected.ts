// What the pinned real agents advertise offline (test/fixtures/realAgents/agents.json pins the versions).
// Measured against the packages themselves; when a pin is bumped, the version checks fail first and
// these lists must be re-measured, so a change in what an agent offers is always noticed.

/** The versions measured below; the tests fail when agents.json pins another, so the lists get re-measured. */
export const CLAUDE_AGENT_ACP_VERSION = '0.101.0';
export const GEMINI_CLI_VERSION = '0.61.0';
export const COPILOT_VERSION = '1.0.102';

/**
 * @agentclientprotocol/claude-agent-acp signed out, with its recipe's env (IS_SANDBOX=1, settings.json
 * defaultMode "default": without that setting 0.101.0 starts in "auto") and Switchboard's client
 * capabilities (boolean config options advertised, so `fast` and `ultracode` come as booleans; a client
 * that does not advertise them gets selects with the values on/off).
 */
export const CLAUDE = {
  /** initialize.authMethods when the client advertises terminal auth (Switchboard does). */
  authMethods: [
    { id: 'claude-ai-login', type: 'terminal' },
    { id: 'console-login', type: 'terminal' },
  ],
  currentModeId: 'default',
  /** [id, name] of each mode, in the agent's order. */
  modes: [
    ['default', 'Manual'],
    ['acceptEdits', 'Accept edits'],
    ['plan', 'Plan'],
    ['auto', 'Auto'],
    ['bypassPermissions', 'Bypass permissions'],
  ],
  modeIds: ['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions'],
  /** [id, category, kind, currentValue] of each config option, in the agent's order. */
  configOptions: [
    ['mode', 'mode', 'select', 'default'],
    ['model', 'model', 'select', 'default'],
    ['effort', 'thought_level', 'select', 'default'],
    ['fast', 'model_config', 'boolean', false],
    ['ultracode', 'model_config', 'boolean', false],
  ],
  /** The `model` option's values. 0.101.0 no longer sends the legacy `models` list. */
  modelIds: ['default', 'opus', 'fable', 'sonnet', 'haiku'],
  effortIds: ['default', 'low', 'medium', 'high', 'xhigh', 'max'],
} as const;

/**
 * `copilot --acp` signed out (no BYOK provider): one auth method with no `type` (so an `agent` method to
 * Switchboard) whose `_meta['terminal-auth']` runs the native binary's `login`; session/new answers -32000
 * without data.
 */
export const COPILOT = {
  /** [id, name, kind, _meta['terminal-auth'].args]. */
  authMethods: [['copilot-login', 'Log in with Copilot CLI', 'agent', ['login']]],
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
