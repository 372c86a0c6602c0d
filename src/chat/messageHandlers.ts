// What each message from the webview does: one handler per message type, over messages already checked
// by the schema (src/shared/webviewMessageSchema.ts).
import { AuthRequiredError } from '../acp/errors';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../shared/messages';
import type { ChatBackend, ChatSession, HostActions, HostUi } from './chatBackend';
import { opensAsMention } from './chipTarget';
import type { PromptQueue } from './promptQueue';
import type { SessionRequests } from './sessionRequests';
import { steerMessage } from './steerMessage';

type MessageOf<T extends WebviewToHostMessage['type']> = Extract<WebviewToHostMessage, { type: T }>;
export type MessageHandlers = { [T in WebviewToHostMessage['type']]: (message: MessageOf<T>) => unknown };

export interface MessageHandlerDeps {
  backend: ChatBackend;
  ui: HostUi;
  actions: HostActions;
  queue: PromptQueue;
  /** The new sessions the webview asked for: a message typed meanwhile waits for its session there. */
  requests: SessionRequests;
  /** Is this session open (the backend reported it and did not close it)? */
  isOpen(sessionId: string): boolean;
  /** The webview is ready again, or asked for a snapshot after a drift. */
  sendInit(): void;
  toast(message: string): void;
  reply(message: Extract<HostToWebviewMessage, { type: 'mentionResults' | 'planFileOpened' | 'checkpoint' }>): void;
}

export function messageHandlers(deps: MessageHandlerDeps): MessageHandlers {
  const { backend, ui, actions, queue, requests } = deps;
  const { sessions, lifecycle, agents, history, files } = backend;
  /** The open session a message names; a closed one is an error the chat reports. */
  const session = (tabId: string): ChatSession => {
    const open = sessions.get(tabId);
    if (!open) throw new Error('That session is closed.');
    return open;
  };
  return {
    ready: () => deps.sendInit(),
    resync: (m) => {
      ui.log('warn', `chat: webview asked for a resync (${m.reason})`);
      deps.sendInit();
    },
    newSession: (m) => (m.requestId !== undefined ? requests.start(m.agentId, m.requestId) : lifecycle.open(m.agentId)),
    selectSession: (m) => {
      requests.dropCurrent();
      sessions.select(m.sessionId);
    },
    closeSession: (m) => lifecycle.close(m.sessionId),
    prompt: async (m) => {
      const prompt = m.prompt;
      if (!prompt.text.trim() && !prompt.images.length && !prompt.mentions.length) return;
      let tabId = m.sessionId !== undefined && deps.isOpen(m.sessionId) ? m.sessionId : undefined;
      // A session the user asked for is still starting: the message waits for it, it never goes elsewhere.
      if (!tabId && m.newSessionRequestId !== undefined) tabId = await requests.session(m.newSessionRequestId);
      if (tabId === undefined) {
        const agentId = m.agentId ?? agents.defaultAgentId();
        try {
          tabId = await lifecycle.open(agentId);
        } catch (error) {
          // The agent needs sign-in first: the message is sent in the session opened after it.
          if (error instanceof AuthRequiredError && agentId !== undefined) queue.waitForSignIn(agentId, prompt);
          throw error;
        }
      }
      queue.submit(tabId, prompt);
    },
    steer: (m) => deps.isOpen(m.sessionId) && steerMessage(session(m.sessionId), queue, m.sessionId, m.prompt, (w) => ui.log('warn', `chat: ${w}`)),
    cancel: (m) => sessions.get(m.sessionId)?.cancel(),
    cancelSubagent: (m) => sessions.get(m.sessionId)?.cancelSubagent(m.subagentSessionId),
    queueEdit: (m) => queue.edit(m.sessionId, m.queueId, m.text),
    queueRemove: (m) => queue.remove(m.sessionId, m.queueId),
    queueSendNow: (m) => queue.sendNow(m.sessionId, m.queueId),
    setMode: (m) => session(m.sessionId).setMode(m.modeId),
    setModel: (m) => session(m.sessionId).setModel(m.modelId),
    setConfigOption: (m) => session(m.sessionId).setConfigOption(m.configId, m.value),
    permissionAnswer: (m) => backend.requests.answerPermission(m.requestId, m.answer),
    elicitationAnswer: (m) => backend.requests.answerElicitation(m.requestId, m.answer),
    dismissError: (m) => sessions.get(m.sessionId)?.dismissError(),
    retry: (m) => {
      const failed = session(m.sessionId);
      const prompt = failed.failedPrompt;
      if (!prompt) throw new Error('there is no failed message to send again');
      failed.dismissError();
      queue.submit(m.sessionId, prompt);
    },
    forkSession: (m) => lifecycle.fork(m.sessionId, m.fromItemId),
    renameSession: (m) => lifecycle.rename(m.sessionId, m.title),
    restartAgent: (m) => agents.restart(m.agentId),
    authenticate: (m) => agents.authenticate(m.agentId, m.methodId),
    logout: (m) => agents.logout(m.agentId),
    providerAction: (m) => backend.providers.run(m.agentId, m.action),
    refreshHistory: () => history.refresh(),
    openHistory: (m) => lifecycle.openHistory(m.historyId, m.mode),
    deleteHistory: (m) => history.delete(m.historyId),
    mentionQuery: async (m) => {
      const candidates = await backend.mentions.query(m.query, m.sessionId);
      deps.reply({ type: 'mentionResults', requestId: m.requestId, candidates });
    },
    copyCode: async (m) => {
      await ui.copy(m.code);
      deps.toast('Copied');
    },
    insertCode: (m) => ui.insertAtCursor(m.code),
    openCode: (m) => ui.openInEditor(m.code, m.language),
    openLink: (m) => ui.openLink(m.href),
    openLocation: (m) => ui.openLocation(m.path, m.line),
    openResource: ({ type: _, uri, ...content }) => (opensAsMention(uri, content) ? actions.openMention({ uri, ...content }) : ui.openResource(uri)),
    openDiff: (m) => files.openDiff(m.sessionId, m.toolCallId, m.path),
    openTerminal: (m) => backend.terminals.reveal(m.sessionId, m.terminalId),
    // A failure is said on the plan's card (the reply), not in a notification.
    openPlanFile: async (m) => {
      const error = await files.openPlanFile(m.sessionId, m.planId).then(
        () => undefined,
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      if (error !== undefined) ui.log('warn', `chat: could not open the file of plan ${m.planId}: ${error}`);
      deps.reply({ type: 'planFileOpened', sessionId: m.sessionId, planId: m.planId, uri: m.uri, ...(error !== undefined ? { error } : {}) });
    },
    changedFileAction: (m) => files.fileAction(m.sessionId, m.key, m.action),
    changedFilesAll: (m) => files.allFiles(m.sessionId, m.action),
    checkpointAction: async ({ sessionId, itemId, action }) => {
      deps.reply({ type: 'checkpoint', sessionId, itemId, view: await backend.checkpoints.act(sessionId, itemId, action) });
    },
    showProtocolLog: () => actions.showProtocolLog(),
    addAgentFromRegistry: () => actions.addAgentFromRegistry(),
    log: (m) => ui.log(m.level, `webview: ${m.message}`),
  };
}
