// activate/deactivate only: build the context, register, report activation errors.
import * as vscode from 'vscode';
import { LoginShellEnvironmentCache } from './agents';
import { ChatViewProvider } from './chat/chatViewProvider';
import { AgentConfiguration } from './host/session/agentConfiguration';
import { AgentSecrets } from './host/auth/agentSecrets';
import { ChatElicitationPresenter, ChatPermissionPresenter } from './host/permissions/chatPresenters';
import { registerCommands } from './host/session/commands';
import { registerRegistryCommands } from './host/session/registry/registryCommands';
import { RegistryService } from './host/session/registry/registryService';
import { DiffReview } from './host/diff';
import { connectPermissionBroker, connectWriteSource } from './host/diff/adapters';
import { ElicitationBroker, QuickInputElicitationPresenter } from './host/permissions/elicitationBroker';
import { FileConfinement, normalizePolicy } from './host/fs/fileConfinement';
import { FsBridge } from './host/fs/fsBridge';
import { LogChannels } from './host/log/logChannels';
import { readMcpServers } from './host/session/mcpConfiguration';
import { NotificationPermissionPresenter, PermissionBroker } from './host/permissions/permissionBroker';
import { ProtocolLog } from './host/log/protocolLog';
import { SessionBackend } from './host/session/sessionBackend';
import { TranscriptStore } from './host/session/transcriptStore';
import { AgentStatusBar } from './host/session/statusBar';
import { TerminalBridge } from './host/terminal/terminalBridge';
import { WriteHistory } from './host/fs/writeHistory';

/** What tests and other extensions can reach through `extension.exports`. */
export interface SwitchboardApi {
  backend: SessionBackend;
  configuration: AgentConfiguration;
  chat: ChatViewProvider;
  diffReview: DiffReview;
  permissions: PermissionBroker;
  registry: RegistryService;
}

let backendForDeactivate: SessionBackend | undefined;
/**
 * Not in context.subscriptions: VS Code disposes those as soon as it calls deactivate, while stopping the
 * agents still logs (a closed channel throws). Disposed at the end of deactivate instead.
 */
let logsForDeactivate: LogChannels | undefined;

export function activate(context: vscode.ExtensionContext): SwitchboardApi {
  const logs = (logsForDeactivate = new LogChannels());
  try {
    return build(context, logs);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    logs.main.error(`Activation failed: ${message}`);
    void vscode.window.showErrorMessage('Switchboard could not start. See the Switchboard output for details.', 'Show Log').then((c) => c && logs.main.show());
    throw error;
  }
}

function build(context: vscode.ExtensionContext, logs: LogChannels): SwitchboardApi {
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
  sub(diffReview.register());
  sub(connectPermissionBroker(diffReview, permissions));
  sub(connectWriteSource(diffReview, fs));

  const store = new TranscriptStore(context.workspaceState, context.storageUri ?? context.globalStorageUri, log);
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
    clientVersion: String(context.extension.packageJSON.version ?? '0.0.0'),
    mcpServers: () => readMcpServers(log),
  });
  backendForDeactivate = backend;
  late.backend = backend;
  const chat = (late.chat = ChatViewProvider.register(context, backend, { log }));
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
  log.info(`Switchboard ${String(context.extension.packageJSON.version)} activated in VS Code ${vscode.version}`);
  return { backend, configuration, chat, diffReview, permissions, registry };
}

export async function deactivate(): Promise<void> {
  // Stop every agent (and its process tree) before the extension host goes away.
  try {
    await backendForDeactivate?.dispose();
  } finally {
    backendForDeactivate = undefined;
    logsForDeactivate?.dispose();
    logsForDeactivate = undefined;
  }
}
