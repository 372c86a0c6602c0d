// API keys collected for `env_var` sign-in, and remote agents' secret headers, live in SecretStorage,
// never in settings or logs.
// The list of variable names per agent is itself kept as a secret so nothing leaks into settings.
import * as vscode from 'vscode';

const PREFIX = 'switchboard.env';

export class AgentSecrets {
  constructor(private readonly storage: vscode.SecretStorage) {}

  async get(agentName: string, variable: string): Promise<string | undefined> {
    return this.storage.get(key(agentName, variable));
  }

  async set(agentName: string, variable: string, value: string): Promise<void> {
    await this.storage.store(key(agentName, variable), value);
    const names = new Set(await this.names(agentName));
    names.add(variable);
    await this.storage.store(indexKey(agentName), JSON.stringify([...names]));
  }

  async delete(agentName: string, variable: string): Promise<void> {
    await this.storage.delete(key(agentName, variable));
    const names = (await this.names(agentName)).filter((n) => n !== variable);
    await this.storage.store(indexKey(agentName), JSON.stringify(names));
  }

  /** Every stored variable of the agent, for its environment. */
  async environment(agentName: string): Promise<Record<string, string>> {
    const env: Record<string, string> = {};
    // Names with a ':' are not variables (e.g. "authenticate:<method>"): environment names cannot hold one.
    for (const name of (await this.names(agentName)).filter((n) => !n.includes(':'))) {
      const value = await this.get(agentName, name);
      if (value !== undefined) env[name] = value;
    }
    return env;
  }

  async clear(agentName: string): Promise<void> {
    for (const name of await this.names(agentName)) await this.storage.delete(key(agentName, name));
    await this.storage.delete(indexKey(agentName));
  }

  private async names(agentName: string): Promise<string[]> {
    try {
      const parsed: unknown = JSON.parse((await this.storage.get(indexKey(agentName))) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : [];
    } catch {
      return [];
    }
  }
}

function key(agentName: string, variable: string): string {
  return `${PREFIX}/${agentName}/${variable}`;
}

function indexKey(agentName: string): string {
  return `${PREFIX}/${agentName}/#names`;
}
