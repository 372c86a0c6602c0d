// A remote agent's headers with `${secret}` filled in from SecretStorage: asked for once (a password
// input box), kept under the agent's name, forgotten when the server refuses them (HTTP 401/403) so
// the next Reconnect asks again. The values never reach settings or logs.
import { SECRET_PLACEHOLDER } from '../../agents';
import type { AgentSecrets } from './agentSecrets';
import type { AuthUi } from './authFlow';

export interface ResolvedHeaders {
  headers: Record<string, string>;
  /** Names of the headers whose values came from secret storage. */
  secretHeaders: string[];
}

/** The user dismissed the prompt for a secret the agent's headers need. */
export class SecretNotGivenError extends Error {}

/** Header names whose value holds the placeholder. */
export function headersNeedingSecrets(headers: Readonly<Record<string, string>>): string[] {
  return Object.keys(headers).filter((name) => headers[name].includes(SECRET_PLACEHOLDER));
}

export async function resolveSecretHeaders(
  agentName: string,
  host: string,
  headers: Readonly<Record<string, string>>,
  secrets: AgentSecrets,
  ui: AuthUi,
): Promise<ResolvedHeaders> {
  const resolved: Record<string, string> = { ...headers };
  const secretHeaders = headersNeedingSecrets(headers);
  for (const name of secretHeaders) {
    let value = await secrets.get(agentName, secretName(name));
    if (value === undefined) {
      value = await ui.showInputBox({
        title: `${agentName}: ${name}`,
        prompt: `The secret part of the "${name}" header sent to ${host} (${headers[name]}). Kept in VS Code's secret storage.`,
        password: true,
        ignoreFocusOut: true,
        validateInput: (text) => (text ? undefined : 'A value is required'),
      });
      if (!value) throw new SecretNotGivenError(`${agentName} needs the "${name}" header to connect. Use Reconnect to enter it.`);
      await secrets.set(agentName, secretName(name), value);
    }
    resolved[name] = headers[name].split(SECRET_PLACEHOLDER).join(value);
  }
  return { headers: resolved, secretHeaders };
}

/** After the server refused the credentials: the next connection asks for them again. */
export async function forgetSecretHeaders(agentName: string, headers: Readonly<Record<string, string>>, secrets: AgentSecrets): Promise<void> {
  for (const name of headersNeedingSecrets(headers)) await secrets.delete(agentName, secretName(name));
}

/** The ':' keeps it out of an agent's environment (see AgentSecrets.environment). */
function secretName(header: string): string {
  return `header:${header.toLowerCase()}`;
}
