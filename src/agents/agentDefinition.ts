/**
 * The launch description of one ACP agent, after validation. This is the shape of a
 * `switchboard.agents` value (and of Zed's / JetBrains' `agent_servers` entries) plus its name.
 */
export interface AgentDefinition {
  /** Display name: the key in `switchboard.agents`, or the preset's name. */
  readonly name: string;
  /**
   * Executable: a name looked up on PATH, a relative path (resolved against cwd), or an absolute path.
   * Empty for a remote agent (see `remote`).
   */
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the agent's environment (after the inherited environment, before secrets). */
  readonly env: Readonly<Record<string, string>>;
  readonly defaultMode?: string;
  readonly defaultModel?: string;
  /** Session config option id -> value id (or boolean for boolean options). */
  readonly defaultConfigOptions?: Readonly<Record<string, string | boolean>>;
  /** Set for an agent Switchboard connects to instead of starting (`url` in the settings entry). */
  readonly remote?: RemoteAgentEndpoint;
}

/** A remote agent: ACP over Streamable HTTP (http, https) or WebSocket (ws, wss). */
export interface RemoteAgentEndpoint {
  readonly url: string;
  /**
   * Sent with every request. A value may hold `${secret}`: the user is asked for it once and it is
   * kept in SecretStorage, never in settings or logs.
   */
  readonly headers: Readonly<Record<string, string>>;
}

/** The placeholder in a header value that is filled from SecretStorage. */
export const SECRET_PLACEHOLDER = '${secret}';

/** Where a definition came from, so the UI can say "your settings" vs "built-in". */
export type AgentDefinitionSource = 'preset' | 'settings' | 'registry';

export interface ResolvedAgentDefinition extends AgentDefinition {
  readonly source: AgentDefinitionSource;
  /** How to install the agent when its command is missing (presets only, unless overridden). */
  readonly installHint?: string;
  /** An inert data: URI of the agent's icon (agents installed from the ACP Registry). */
  readonly icon?: string;
}

/**
 * One rejected (or skipped) entry in a configuration value or imported file. `entry` is the entry's
 * name (the object key) or `undefined` when the whole value is wrong.
 */
export interface AgentConfigProblem {
  readonly entry: string | undefined;
  readonly message: string;
}
