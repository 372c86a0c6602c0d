// What each message from the webview does: one handler per message type, over messages already checked
// by the schema (src/shared/webviewMessageSchema.ts).
import type { HostToWebviewMessage, WebviewToHostMessage } from '../shared/messages';
import type { ChatBackend } from './chatBackend';
import type { HostUi } from './chatBackend';
import type { PromptQueue } from './promptQueue';
import type { SessionRequests } from './sessionRequests';
import { steerMessage } from './steerMessage';

type MessageOf<T extends WebviewToHostMessage['type']> = Extract<WebviewToHostMessage, { type: T }>;
export type MessageHandlers = { [T in WebviewToHostMessage['type']]: (message: MessageOf<T>) => unknown };

export interface MessageHandlerDeps {
  backend: ChatBackend;
  ui: HostUi;
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

export function messageHandlers(d: MessageHandlerDeps): MessageHandlers {
  const { backend: b, ui, queue, requests } = d;
  return {
    ready: () => d.sendInit(),
    resync: (m) => {
      ui.log('warn', `chat: webview asked for a resync (${m.reason})`);
      d.sendInit();
    },
    newSession: (m) => (m.requestId !== undefined ? requests.start(m.agentId, m.requestId) : b.newSession(m.agentId)),
    selectSession: (m) => {
      requests.dropCurrent();
      b.selectSession(m.sessionId);
    },
    closeSession: (m) => b.closeSession(m.sessionId),
    prompt: async (m) => {
      const prompt = m.prompt;
      if (!prompt.text.trim() && !prompt.images.length && !prompt.mentions.length) return;
      let sessionId = m.sessionId !== undefined && d.isOpen(m.sessionId) ? m.sessionId : undefined;
      // A session the user asked for is still starting: the message waits for it, it never goes elsewhere.
      if (!sessionId && m.newSessionRequestId !== undefined) sessionId = await requests.session(m.newSessionRequestId);
      // When the agent needs sign-in first, the message is sent in the session opened after it.
      sessionId ??= await b.newSession(m.agentId, (opened) => queue.submit(opened, prompt));
      queue.submit(sessionId, prompt);
    },
    steer: (m) => d.isOpen(m.sessionId) && steerMessage(b, queue, m.sessionId, m.prompt, (w) => ui.log('warn', `chat: ${w}`)),
    cancel: (m) => b.cancel(m.sessionId),
    queueEdit: (m) => queue.edit(m.sessionId, m.queueId, m.text),
    queueRemove: (m) => queue.remove(m.sessionId, m.queueId),
    queueSendNow: (m) => queue.sendNow(m.sessionId, m.queueId),
    setMode: (m) => b.setMode(m.sessionId, m.modeId),
    setModel: (m) => b.setModel(m.sessionId, m.modelId),
    setConfigOption: (m) => b.setConfigOption(m.sessionId, m.configId, m.value),
    permissionAnswer: (m) => b.answerPermission(m.sessionId, m.requestId, m.answer),
    elicitationAnswer: (m) => b.answerElicitation(m.sessionId, m.requestId, m.answer),
    dismissError: (m) => b.dismissError(m.sessionId),
    retry: (m) => {
      const prompt = b.failedPrompt?.(m.sessionId);
      if (!prompt) throw new Error('there is no failed message to send again');
      b.dismissError(m.sessionId);
      queue.submit(m.sessionId, prompt);
    },
    forkSession: (m) => b.forkSession(m.sessionId, m.fromItemId),
    renameSession: (m) => b.renameSession(m.sessionId, m.title),
    restartAgent: (m) => b.restartAgent(m.agentId),
    authenticate: (m) => b.authenticate(m.agentId, m.methodId),
    logout: (m) => b.logout(m.agentId),
    providerAction: (m) => b.providerAction(m.agentId, m.action),
    refreshHistory: () => b.refreshHistory(),
    openHistory: (m) => b.openHistory(m.historyId, m.mode),
    deleteHistory: (m) => b.deleteHistory(m.historyId),
    mentionQuery: async (m) => {
      const candidates = await (b.queryMentions ? b.queryMentions(m.query, m.sessionId) : ui.queryMentions(m.query, m.sessionId));
      d.reply({ type: 'mentionResults', requestId: m.requestId, candidates });
    },
    copyCode: async (m) => {
      await ui.copy(m.code);
      d.toast('Copied');
    },
    insertCode: (m) => ui.insertAtCursor(m.code),
    openCode: (m) => ui.openInEditor(m.code, m.language),
    openLink: (m) => ui.openLink(m.href),
    openLocation: (m) => ui.openLocation(m.path, m.line),
    openResource: ({ type: _, uri, ...content }) => ui.openResource(uri, content),
    openDiff: (m) => b.openDiff(m.sessionId, m.toolCallId, m.path),
    openTerminal: (m) => b.openTerminal(m.sessionId, m.terminalId),
    // A failure is said on the plan's card (the reply), not in a notification.
    openPlanFile: async (m) => {
      const error = await b.openPlanFile(m.sessionId, m.planId).then(
        () => undefined,
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      if (error !== undefined) ui.log('warn', `chat: could not open the file of plan ${m.planId}: ${error}`);
      d.reply({ type: 'planFileOpened', sessionId: m.sessionId, planId: m.planId, uri: m.uri, ...(error !== undefined ? { error } : {}) });
    },
    changedFileAction: (m) => b.changedFileAction(m.sessionId, m.key, m.action),
    changedFilesAll: (m) => b.changedFilesAll(m.sessionId, m.action),
    checkpointAction: async ({ sessionId, itemId, action }) => {
      if (!b.checkpoint) throw new Error('no checkpoints here');
      d.reply({ type: 'checkpoint', sessionId, itemId, view: await b.checkpoint(sessionId, itemId, action) });
    },
    showProtocolLog: () => ui.showProtocolLog(),
    addAgentFromRegistry: () => ui.addAgentFromRegistry(),
    log: (m) => ui.log(m.level, `webview: ${m.message}`),
  };
}
