// What we advertise in `initialize`: only what has a handler behind it, so an agent never
// calls a method that would then fail with -32601.
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import type { ClientRequestMethod } from './handlers';

export interface CapabilityOptions {
  /** The host can run an agent's `terminal` auth method (login in a terminal). */
  terminalAuth?: boolean;
}

export function clientCapabilitiesFor(
  registered: ReadonlySet<ClientRequestMethod>,
  options: CapabilityOptions = {},
): ClientCapabilities {
  const terminal =
    registered.has('terminal/create') &&
    registered.has('terminal/output') &&
    registered.has('terminal/wait_for_exit') &&
    registered.has('terminal/kill') &&
    registered.has('terminal/release');
  // `plan` is unstable (not in the SDK's stable type): the chat renders plan_update (items, markdown, and a
  // file plan as a card that opens the file) and plan_removed. Claude then sends its approved plan.
  // `subagents` is unstable too: child sessions' updates and requests are routed to their root session's chat
  // and shown nested there (acp/connection/subagentRoutes.ts, acp/session/subagentItems.ts).
  const capabilities: ClientCapabilities & { plan: Record<string, never>; subagents: Record<string, never> } = {
    fs: { readTextFile: registered.has('fs/read_text_file'), writeTextFile: registered.has('fs/write_text_file') },
    terminal,
    auth: { terminal: options.terminalAuth ?? false },
    // The reducer renders these update kinds and boolean options, so say so.
    session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
    plan: {},
    subagents: {},
  };
  if (registered.has('elicitation/create')) capabilities.elicitation = { form: {}, url: {} };
  // Zed's extension: Claude and Codex then stream the output of the shells they run themselves as
  // `terminal` content with `_meta.terminal_output` / `terminal_exit` (the reducer keeps it per tool call).
  capabilities._meta = { terminal_output: true };
  // Agents built on claude-agent-acp look for this older hint to offer terminal login.
  if (options.terminalAuth) capabilities._meta['terminal-auth'] = true;
  return capabilities;
}
