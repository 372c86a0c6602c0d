// Runs one sign-in flow the agent advertised: `agent` calls authenticate, `terminal` runs the agent's
// login in a VS Code terminal and waits for it to exit (never passed to authenticate, as the schema
// requires; only exit 0 is success), `env_var` asks for each variable and keeps it in SecretStorage (the
// agent is then restarted with it). The caller retries what needed sign-in.
import * as vscode from 'vscode';
import type { AuthFlow } from './authMethods';
import type { AgentSecrets } from './agentSecrets';

export interface AuthTarget {
  agentName: string;
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
  authenticate(methodId: string, meta?: Record<string, unknown>): Promise<void>;
  /** Restart the agent so it sees new secrets in its environment. */
  restart(): Promise<void>;
}

export type AuthOutcome = 'done' | 'cancelled';

/** A sign-in that ran and did not succeed (the login command failed): its message says what happened. */
export class SignInFailedError extends Error {}

/** The prompts a flow shows; tests replace it (an extension host cannot type into an input box). */
export interface AuthUi {
  showInputBox(options: vscode.InputBoxOptions): Thenable<string | undefined>;
}

export const windowAuthUi: AuthUi = { showInputBox: (options) => vscode.window.showInputBox(options) };

export async function runAuthFlow(flow: AuthFlow, target: AuthTarget, secrets: AgentSecrets, ui: AuthUi = windowAuthUi): Promise<AuthOutcome> {
  switch (flow.type) {
    case 'agent': {
      if (!flow.apiKey) {
        await target.authenticate(flow.id);
        return 'done';
      }
      const secretName = `authenticate:${flow.id}`;
      const stored = await secrets.get(target.agentName, secretName);
      const key = await ui.showInputBox({
        title: `${target.agentName}: ${flow.name}`,
        prompt: `${flow.description ?? flow.name}. Kept in VS Code's secret storage and sent to the agent when it asks you to sign in.`,
        password: true,
        ignoreFocusOut: true,
        placeHolder: stored ? 'Leave empty to use the stored key' : undefined,
        validateInput: (text) => (!text && !stored ? 'The key is required' : undefined),
      });
      if (key === undefined) return 'cancelled';
      // The ':' in the name keeps it out of the agent's environment (see AgentSecrets.environment).
      if (key) await secrets.set(target.agentName, secretName, key);
      await target.authenticate(flow.id, { 'api-key': key || stored });
      return 'done';
    }
    case 'terminal': {
      const exitCode = await runLoginTerminal(flow, target);
      if (exitCode === 0) return 'done';
      throw new SignInFailedError(
        exitCode === undefined
          ? `The sign-in terminal "${flow.name}" closed before the login command finished: sign-in failed. Choose the method again to retry.`
          : `The sign-in command "${flow.name}" exited with code ${exitCode}: sign-in failed. Choose the method again to retry.`,
      );
    }
    case 'env_var': {
      for (const v of flow.vars) {
        const existing = await secrets.get(target.agentName, v.name);
        const value = await ui.showInputBox({
          title: `${target.agentName}: ${flow.name}`,
          prompt: `${v.label ?? v.name}${v.optional ? ' (optional)' : ''}. Kept in VS Code's secret storage, passed to the agent as ${v.name}.`,
          password: v.secret,
          ignoreFocusOut: true,
          value: existing && !v.secret ? existing : undefined,
          placeHolder: existing ? 'Leave empty to keep the stored value' : undefined,
          validateInput: (text) => (!text && !v.optional && !existing ? `${v.name} is required` : undefined),
        });
        if (value === undefined) return 'cancelled';
        if (value) await secrets.set(target.agentName, v.name, value);
      }
      await target.restart();
      return 'done';
    }
  }
}

/** Resolves with the exit code when the login terminal closes; undefined when it closed without one (killed, or closed by the user). */
function runLoginTerminal(flow: Extract<AuthFlow, { type: 'terminal' }>, target: AuthTarget): Promise<number | undefined> {
  const command = flow.command ?? target.command;
  const args = flow.command ? flow.args : [...target.args, ...flow.args];
  const terminal = vscode.window.createTerminal({
    name: `${target.agentName}: ${flow.name}`,
    shellPath: command,
    shellArgs: args,
    cwd: target.cwd,
    env: { ...target.env, ...flow.env },
    isTransient: true,
  });
  terminal.show(false);
  return new Promise((resolve) => {
    const listener = vscode.window.onDidCloseTerminal((closed) => {
      if (closed !== terminal) return;
      listener.dispose();
      resolve(closed.exitStatus?.code);
    });
  });
}
