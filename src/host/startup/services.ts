// Switchboard's services: the bridges, diff review, sessions and the chat, built and registered together on
// first use (lazyServices.ts). What an agent needs to run (the protocol engine, remote transports, registry
// installs) is loaded later still, when the first agent starts.
import * as vscode from 'vscode';
import { LoginShellEnvironmentCache } from '../../agents';
import type { ChatSurfaces } from '../../chat/surfaces/chatSurfaces';
import { ChatViewProvider } from '../../chat/surfaces/chatViewProvider';
import { MentionOpener } from '../context/mentionOpener';
import { registerAddToChat } from '../context/register';
import { AgentSecrets } from '../auth/agentSecrets';
import { DiffReview, type ExistingTreeView } from '../diff';
import { connectPermissionBroker, connectWriteSource } from '../diff/adapters';
import { FileConfinement, normalizePolicy } from '../fs/fileConfinement';
import { FsBridge } from '../fs/fsBridge';
import { SensitiveWrites } from '../fs/sensitiveWrites';
import { WriteHistory } from '../fs/writeHistory';
import { IdeTools } from '../ideTools/ideTools';
import { MentionSources } from '../mentions/mentionSources';
import { SessionInstructions } from '../session/turn/instructions';
import type { LogChannels } from '../log/logChannels';
import { ProtocolLog } from '../log/protocolLog';
import { ChatElicitationPresenter, ChatPermissionPresenter } from '../permissions/chatPresenters';
import { ElicitationBroker, QuickInputElicitationPresenter } from '../permissions/elicitationBroker';
import { NotificationPermissionPresenter, PermissionBroker } from '../permissions/permissionBroker';
import { WorkspaceSettingsGate } from '../permissions/workspaceSettingsGate';
import { AgentConfiguration } from '../agents/configuration/agentConfiguration';
import { newSessionAction, registerCommands } from '../session/commands';
import { readMcpServers } from '../session/mcpConfiguration';
import { watchSensitiveChanges } from '../session/sensitiveChanges';
import { RegistryUi } from '../registry/registryUi';
import { RegistryService } from '../registry/registryService';
import { SessionBackend } from '../session/sessionBackend';
import { AgentStatusBar } from '../agents/statusBar';
import { TranscriptStore } from '../session/tabs/transcriptStore';
import { TerminalBridge } from '../terminal/terminalBridge';
import { composerTarget } from './composerTarget';
import { hostActions } from './hostActions';

/** What tests and other extensions reach through `extension.exports.services()`. */
export interface SwitchboardApi {
  backend: SessionBackend;
  configuration: AgentConfiguration;
  chat: ChatViewProvider;
  diffReview: DiffReview;
  permissions: PermissionBroker;
  registry: RegistryService;
  /** Which workspace values of powerful settings the user confirmed. */
  workspaceSettings: WorkspaceSettingsGate;
}

/**
 * Builds the services and registers their commands and views (the chat view's provider is registered at
 * activation and hands its view to `chat`). Disposables go to the context's subscriptions.
 */
/** `changedFilesView`: the changed-files view, created at activation; the diff review's tree fills it. */
export { shutDownAgents } from './shutdown';

export function startServices(context: vscode.ExtensionContext, logs: LogChannels, changedFilesView: ExistingTreeView): SwitchboardApi {
  const log = logs.main;
  const sub = <T extends vscode.Disposable>(d: T): T => {
    context.subscriptions.push(d);
    return d;
  };
  const protocolLog = sub(new ProtocolLog(logs.protocol));
  const statusBar = sub(new AgentStatusBar());
  const secrets = new AgentSecrets(context.secrets);
  const shellEnvironment = new LoginShellEnvironmentCache({
    logger: { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) },
  });
  const settingsGate = sub(new WorkspaceSettingsGate({ memento: context.workspaceState, log }));
  sub(vscode.commands.registerCommand('switchboard.revokeWorkspaceSettings', async () => {
    await settingsGate.revoke();
    void vscode.window.showInformationMessage("Switchboard: confirmations of this workspace's settings were forgotten; its powerful settings wait for your confirmation again.");
  }));
  const registry = sub(new RegistryService({ storage: context.globalStorageUri.fsPath, log, shellEnvironment, settingsGate }));
  const configuration = sub(new AgentConfiguration(log, settingsGate, registry));

  // The backend is created after the brokers, which ask it whether the chat has a session.
  const late: { backend?: SessionBackend } = {};
  const confinement = new FileConfinement({
    getPolicy: () => normalizePolicy(settingsGate.effective('fileAccess')),
    askUser: async (question) => {
      const allow = 'Allow';
      const choice = await vscode.window.showWarningMessage(question.message, { modal: true }, allow);
      return choice === allow;
    },
  });
  const history = new WriteHistory();
  const chatSessions = { showsSession: (id: string | undefined) => id !== undefined && late.backend?.sessions.scoped(id) !== undefined };
  // The card's code loads with the first write to a sensitive file.
  const sensitive: SensitiveWrites = sub(
    new SensitiveWrites({ ask: async (question): Promise<boolean> => (await import('../permissions/sensitiveWritePrompt')).askSensitiveWrite(permissions, question) }),
  );
  const permissions: PermissionBroker = sub(
    new PermissionBroker({
      presenters: [new ChatPermissionPresenter(chatSessions), new NotificationPermissionPresenter()],
      getAutoApproveLayers: () => settingsGate.autoApproveLayers(),
      mustAsk: (prompt) => sensitive.sensitiveFileIn(prompt.request.toolCall) !== undefined,
    }),
  );
  const fs = sub(new FsBridge({ confinement, history, sensitive }));
  const terminals = sub(new TerminalBridge({ confinement }));
  const elicitations = sub(
    new ElicitationBroker({ presenters: [new ChatElicitationPresenter(chatSessions), new QuickInputElicitationPresenter()] }),
  );
  const diffReview = sub(new DiffReview({ memento: context.workspaceState, log, storageDir: context.globalStorageUri.fsPath }));
  sub(diffReview.register({ treeView: changedFilesView }));
  sub(connectPermissionBroker(diffReview, permissions));
  sub(connectWriteSource(diffReview, fs));

  const clientVersion = String(context.extension.packageJSON.version ?? '0.0.0');
  const ideTools = sub(new IdeTools({ log, protocolLog, extensionPath: context.extensionPath, version: clientVersion }));
  const mentions = sub(new MentionSources({ log, fileAccess: () => normalizePolicy(settingsGate.effective('fileAccess')) }));
  const store = new TranscriptStore({ memento: context.workspaceState, globalStorage: context.globalStorageUri, legacyStorage: context.storageUri, log });
  const backend = new SessionBackend({
    logs,
    protocolLog,
    configuration,
    statusBar,
    fs,
    terminals,
    permissions,
    elicitations,
    diffReview,
    store,
    secrets,
    shellEnvironment,
    clientVersion,
    mcpServers: () => readMcpServers(log, settingsGate),
    ideTools,
    mentions,
    instructions: new SessionInstructions(settingsGate, log),
  });
  sub(watchSensitiveChanges({ tracker: diffReview.tracker, sensitive, sessions: () => backend.sessions.values(), log }));
  const registryUi = sub(
    new RegistryUi({
      service: registry,
      log,
      agents: {
        isRunning: (agent) => ['starting', 'ready', 'auth_required'].includes(backend.agents.running(agent)?.status ?? 'stopped'),
        restartAgent: async (agent) => void (await backend.agents.restart(agent)),
      },
    }),
  );
  const mentionOpener = sub(new MentionOpener());
  const chat = sub(new ChatViewProvider(context.extensionUri, backend, hostActions({ protocolLog, mentionOpener, registryUi }), log));
  sub(registryUi.onDidChooseSession(newSessionAction({ chat, log })));
  late.backend = backend;
  // The chat's other surfaces (the editor tab) and the attention code load with the first session or the
  // first "Open Chat in Editor": nothing waits for the user before.
  let surfaces: Promise<ChatSurfaces> | undefined;
  const chatSurfaces = (): Promise<ChatSurfaces> =>
    (surfaces ??= import('../../chat/surfaces/chatSurfaces').then(({ ChatSurfaces }) => sub(new ChatSurfaces(context.extensionUri, chat, (id) => backend.sessions.select(id)))));
  sub(vscode.commands.registerCommand('switchboard.openInEditor', async () => (await chatSurfaces()).openInEditor()));
  const firstSession = sub(backend.sessions.onDidChangeSession(() => {
    firstSession.dispose();
    void Promise.all([chatSurfaces(), import('../attention/attention')]).then(([surface, { Attention }]) =>
      sub(new Attention({ backend, chat: surface, showWaiting: (names) => statusBar.showWaiting(names), log })),
    );
  }));
  for (const d of registerCommands({ backend, chat, protocolLog, log })) sub(d);
  for (const d of registerAddToChat(composerTarget(backend, chat, settingsGate, log), log)) sub(d);
  for (const d of registryUi.register()) sub(d);
  void backend.lifecycle.restoreOpenTabs();
  return { backend, configuration, chat, diffReview, permissions, registry, workspaceSettings: settingsGate };
}
