// The Switchboard commands (diff review registers its own). Each one reports failures once, clearly.
import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuthRequiredError, errorMessage } from '../../acp';
import type { ChatViewProvider } from '../../chat/surfaces/chatViewProvider';
import type { ProtocolLog } from '../log/protocolLog';
import type { SessionBackend } from './sessionBackend';

/** The readers of Zed's and JetBrains' agent lists load when the import command runs. */
const loadImporters = () => import('../../agents/importers');
/** The Markdown writer of a transcript loads when a session is exported. */
const loadTranscriptMarkdown = () => import('../../shared/transcriptMarkdown');

export interface CommandDeps {
  backend: SessionBackend;
  chat: ChatViewProvider;
  protocolLog: ProtocolLog;
  log: vscode.LogOutputChannel;
}

function guarded(log: vscode.LogOutputChannel, run: (...args: unknown[]) => unknown): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    try {
      await run(...args);
    } catch (error) {
      // An agent waiting for sign-in shows its methods in the chat, which the command revealed.
      if (error instanceof AuthRequiredError) {
        log.info(`${errorMessage(error)} (waiting for sign-in)`);
        return;
      }
      log.error(errorMessage(error));
      void vscode.window.showErrorMessage(`Switchboard: ${errorMessage(error)}`);
    }
  };
}

async function pickAgent(backend: SessionBackend, placeHolder: string): Promise<string | undefined> {
  const agents = backend.agents.views();
  const pick = await vscode.window.showQuickPick(
    agents.map((a) => ({ label: a.name, description: a.status === 'stopped' ? undefined : a.status })),
    { placeHolder },
  );
  return pick?.label;
}

/**
 * "New session", as the palette and the registry's "Start a session" run it: reveals the chat and opens a
 * session with the agent (the default one when none is named). A failure is logged and shown once; an agent
 * that needs sign-in first shows its methods in the chat, which is not an error.
 */
export function newSessionAction(deps: Pick<CommandDeps, 'chat' | 'log'>): (agent?: unknown) => Promise<void> {
  return guarded(deps.log, async (agent?: unknown) => {
    await deps.chat.reveal();
    await deps.chat.controller.newSession(typeof agent === 'string' ? agent : undefined);
  });
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { backend, chat, log } = deps;
  const register = (id: string, run: (...args: unknown[]) => unknown) => vscode.commands.registerCommand(id, guarded(log, run));
  return [
    vscode.commands.registerCommand('switchboard.newSession', newSessionAction(deps)),
    register('switchboard.cancel', async () => {
      backend.sessions.active?.cancel();
    }),
    register('switchboard.showProtocolLog', () => deps.protocolLog.show()),
    register('switchboard.focusChat', () => chat.reveal()),
    register('switchboard.exportSession', async () => {
      const session = backend.sessions.active;
      if (!session) {
        void vscode.window.showInformationMessage('Switchboard: no session is open to export. Open one in the chat first.');
        return;
      }
      const { transcriptMarkdown } = await loadTranscriptMarkdown();
      const content = transcriptMarkdown(session.transcript, { title: session.title, agentName: session.agentId });
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
      await vscode.window.showTextDocument(doc, { preview: false });
    }),
    register('switchboard.restartAgent', async (agent?: unknown) => {
      const name = typeof agent === 'string' ? agent : (backend.sessions.active?.agentId ?? (await pickAgent(backend, 'Restart which agent?')));
      if (name) await backend.agents.restart(name);
    }),
    register('switchboard.logout', async () => {
      const name = backend.sessions.active?.agentId ?? (await pickAgent(backend, 'Sign out of which agent?'));
      if (!name) return;
      await backend.agents.logout(name);
      void vscode.window.showInformationMessage(`Switchboard: signed out of ${name} and forgot the keys kept for it.`);
    }),
    register('switchboard.importAgents', () => importAgents(log)),
  ];
}

/** Imports agents from Zed's settings.json (`agent_servers`) or JetBrains' ~/.jetbrains/acp.json into user settings. */
async function importAgents(log: vscode.LogOutputChannel): Promise<void> {
  const zed = path.join(os.homedir(), '.config', 'zed', 'settings.json');
  const jetbrains = path.join(os.homedir(), '.jetbrains', 'acp.json');
  const choice = await vscode.window.showQuickPick(
    [
      { label: 'Zed settings.json', detail: zed, file: zed, source: 'zed' as const },
      { label: 'JetBrains acp.json', detail: jetbrains, file: jetbrains, source: 'jetbrains' as const },
      { label: 'Choose a file…', file: undefined, source: 'pick' as const },
    ],
    { placeHolder: 'Import ACP agents from…' },
  );
  if (!choice) return;
  let file = choice.file;
  let kind: 'zed' | 'jetbrains' = choice.source === 'jetbrains' ? 'jetbrains' : 'zed';
  if (!file) {
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { JSON: ['json', 'jsonc'] } });
    if (!picked?.[0]) return;
    file = picked[0].fsPath;
    kind = path.basename(file) === 'acp.json' ? 'jetbrains' : 'zed';
  }
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file)));
  } catch {
    throw new Error(`Could not read ${file}.`);
  }
  const { agentSettingsEntry, importJetBrainsAcpJson, importZedSettings } = await loadImporters();
  const result = kind === 'jetbrains' ? importJetBrainsAcpJson(text) : importZedSettings(text);
  for (const p of [...result.problems, ...result.skipped]) log.warn(`Import from ${file}: ${p.message}`);
  if (result.agents.length === 0) {
    const why = [...result.problems, ...result.skipped].map((p) => p.message).join(' ');
    throw new Error(`No agents to import from ${file}. ${why}`);
  }
  const config = vscode.workspace.getConfiguration('switchboard');
  const current = { ...(config.inspect<Record<string, unknown>>('agents')?.globalValue ?? {}) };
  for (const a of result.agents) {
    current[a.name] = agentSettingsEntry(a);
  }
  await config.update('agents', current, vscode.ConfigurationTarget.Global);
  const skipped = result.skipped.length + result.problems.length;
  void vscode.window.showInformationMessage(
    `Switchboard: imported ${result.agents.map((a) => a.name).join(', ')} into your user settings${skipped ? ` (${skipped} skipped: see the Switchboard log)` : ''}.`,
  );
}
