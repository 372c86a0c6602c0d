// Switchboard's services: the bridges, diff review, sessions and the chat, built and registered together on
// first use (lazyServices.ts). What an agent needs to run (the protocol engine, remote transports, registry
// installs) is loaded later still, when the first agent starts.
import * as vscode from 'vscode';
import { LoginShellEnvironmentCache } from '../../agents';
import { ChatViewProvider } from '../../chat/chatViewProvider';
import { AgentSecrets } from '../auth/agentSecrets';
import { DiffReview, type ExistingTreeView } from '../diff';
import { connectPermissionBroker, connectWriteSource } from '../diff/adapters';
import { FileConfinement, normalizePolicy } from '../fs/fileConfinement';
import { FsBridge } from '../fs/fsBridge';
import { WriteHistory } from '../fs/writeHistory';
import { IdeTools } from '../ideTools/ideTools';
import type { LogChannels } from '../log/logChannels';
import { ProtocolLog } from '../log/protocolLog';
import { ChatElicitationPresenter, ChatPermissionPresenter } from '../permissions/chatPresenters';
import { ElicitationBroker, QuickInputElicitationPresenter } from '../permissions/elicitationBroker';
import { NotificationPermissionPresenter, PermissionBroker } from '../permissions/permissionBroker';
import { AgentConfiguration } from '../session/agentConfiguration';
import { registerCommands } from '../session/commands';
import { readMcpServers } from '../session/mcpConfiguration';
import { registerRegistryCommands } from '../session/registry/registryCommands';
import { RegistryService } from '../session/registry/registryService';
import { SessionBackend } from '../session/sessionBackend';
import { AgentStatusBar } from '../session/statusBar';
import { TranscriptStore } from '../session/transcriptStore';
import { TerminalBridge } from '../terminal/terminalBridge';

/** What tests and other extensions reach through `extension.exports.services()`. */
export interface SwitchboardApi {
  backend: SessionBackend;
  configuration: AgentConfiguration;
  chat: ChatViewProvider;
  diffReview: DiffReview;
  permissions: PermissionBroker;
  registry: RegistryService;
}

/**
 * Builds the services and registers their commands and views (the chat view's provider is registered at
 * activation and hands its view to `chat`). Disposables go to the context's subscriptions.
 */
/** `changedFilesView`: the changed-files view, created at activation; the diff review's tree fills it. */
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
  const registry = sub(new RegistryService({ storage: context.globalStorageUri.fsPath, log, shellEnvironment }));
  const configuration = sub(new AgentConfiguration(log, registry));

  // The backend is created after the bridges but they ask it about sessions; late binding keeps the order simple.
  const late: { backend?: SessionBackend; chat?: ChatViewProvider } = {};
  const confinement = new FileConfinement({
    getRoots: (sessionId) => late.backend?.sessions.rootsOf(sessionId),
    getPolicy: () => normalizePolicy(vscode.workspace.getConfiguration('switchboard').get('fileAccess')),
    askUser: async (question) => {
      const allow = 'Allow';
      const choice = await vscode.window.showWarningMessage(question.message, { modal: true }, allow);
      return choice === allow;
    },
  });
  const history = new WriteHistory();
  const fs = sub(new FsBridge({ confinement, history, getTurnId: (sessionId) => late.backend?.sessions.turnIdOf(sessionId) ?? 'default' }));
  const terminals = sub(new TerminalBridge({ confinement }));
  const chatVisibility = { get isVisible() { return late.chat?.isVisible ?? false; } };
  const permissions = sub(
    new PermissionBroker({
      presenters: [new ChatPermissionPresenter(chatVisibility), new NotificationPermissionPresenter()],
      getAgentName: (sessionId) => late.backend?.sessions.agentNameOf(sessionId),
      resolveToolKind: (sessionId, toolCallId) => late.backend?.sessions.toolKindOf(sessionId, toolCallId),
    }),
  );
  const elicitations = sub(
    new ElicitationBroker({ presenters: [new ChatElicitationPresenter(chatVisibility), new QuickInputElicitationPresenter()] }),
  );
  const diffReview = sub(new DiffReview({ memento: context.workspaceState, log, describeTurn: (turn) => late.backend?.sessions.describeTurn(turn) }));
  sub(diffReview.register({ treeView: changedFilesView }));
  sub(connectPermissionBroker(diffReview, permissions));
  sub(connectWriteSource(diffReview, fs));

  const clientVersion = String(context.extension.packageJSON.version ?? '0.0.0');
  const ideTools = sub(new IdeTools({ log, extensionPath: context.extensionPath, version: clientVersion }));
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
    mcpServers: () => readMcpServers(log),
    ideTools,
  });
  late.backend = backend;
  const chat = (late.chat = sub(new ChatViewProvider(context.extensionUri, backend, { log })));
  for (const d of registerCommands({ backend, chat, protocolLog, log })) sub(d);
  for (const d of registerRegistryCommands({
    service: registry,
    log,
    startSession: async (agent) => void (await vscode.commands.executeCommand('switchboard.newSession', agent)),
    isRunning: (agent) => ['starting', 'ready', 'auth_required'].includes(backend.getAgents().find((a) => a.id === agent)?.status ?? 'stopped'),
    restartAgent: async (agent) => void (await vscode.commands.executeCommand('switchboard.restartAgent', agent)),
  })) {
    sub(d);
  }
  void backend.restoreOpenTabs();
  return { backend, configuration, chat, diffReview, permissions, registry };
}
