/**
 * The agents layer (pure Node, no `vscode`): what an agent is, how to find, start, stop and restart
 * it, and how to keep its secrets out of logs. The host wires these into VS Code.
 */
export type { AgentConfigProblem, AgentDefinition, AgentDefinitionSource, RemoteAgentEndpoint, ResolvedAgentDefinition } from './agentDefinition';
export { SECRET_PLACEHOLDER } from './agentDefinition';
export { agentEntrySchema, mergeWithPresets, parseAgentEntry, parseAgentSettings } from './agentSettings';
export type { AgentEntry, AgentEntryResult, ParsedAgentSettings } from './agentSettings';
export { AgentProcess, buildAgentEnvironment, describeAgentExit, startAgentProcess } from './agentProcess';
export { AgentSpawnError, CommandNotFoundError } from './agentStartErrors';
export type { AgentExit, AgentProcessOptions, StopTimeouts } from './agentProcess';
export { importJetBrainsAcpJson, importZedSettings } from './importers';
export type { AgentImportResult } from './importers';
export { parseJsonc } from './parseJsonc';
export { silentLogger } from './logger';
export type { AgentLogger } from './logger';
export { BUILTIN_PRESETS } from './presets';
export type { AgentPreset } from './presets';
export { isProcessAlive, killProcessTree, listDescendants, signalProcessTrees } from './processTree';
export { REDACTED, redactProtocolMessage, redactSecrets } from './redact';
export { buildSpawnInvocation, getPathFromEnv, resolveCommand } from './resolveCommand';
export type { ResolveCommandOptions, ResolvedCommand, SpawnInvocation } from './resolveCommand';
export { RestartPolicy } from './restartPolicy';
export type { RestartDecision, RestartPolicyOptions } from './restartPolicy';
export { ReconnectBackoff } from './reconnectBackoff';
export type { ReconnectBackoffOptions } from './reconnectBackoff';
export { readLoginShellEnvironment } from './shellEnvironment';
export { LoginShellEnvironmentCache } from './shellEnvironmentCache';
export type { LoginShellEnvironment, LoginShellOptions } from './shellEnvironment';
export { LineRing } from './stderrLines';
export { mergeMcpServers, parseMcpServers, parseVSCodeMcpServers } from './mcpServers';
