// What of an agent's settings a running agent does not have yet: the process (or connection) keeps what it
// was started with, so a changed command, args, env, URL or headers applies only after a restart, which the
// chat offers ("Restart <agent> to apply"). Pure: no `vscode`.
import type { ResolvedAgentDefinition } from '../../../agents';

/** The settings a start reads (the session defaults apply to new sessions without one). */
export type LaunchSetting = 'command' | 'args' | 'env' | 'url' | 'headers';

/** Which launch settings differ between the definition an agent was started with and the current one. */
export function launchSettingsChanged(started: ResolvedAgentDefinition, now: ResolvedAgentDefinition): LaunchSetting[] {
  const changed: LaunchSetting[] = [];
  if (started.command !== now.command) changed.push('command');
  if (!sameJson(started.args, now.args)) changed.push('args');
  if (!sameJson(sorted(started.env), sorted(now.env))) changed.push('env');
  if (started.remote?.url !== now.remote?.url) changed.push('url');
  if (!sameJson(sorted(started.remote?.headers), sorted(now.remote?.headers))) changed.push('headers');
  return changed;
}

function sorted(record: Readonly<Record<string, string>> | undefined): [string, string][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
