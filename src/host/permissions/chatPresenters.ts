// Permission and elicitation prompts shown as inline cards in the chat. The cards render from the
// session view (pending prompts); the user's click resolves the broker directly, so presenting only
// has to wait until the request is answered (or cancelled) and say whether the chat has the session. A
// card waits there also while the chat is hidden: the attention notification calls the user to it.
import type { ElicitationPresenter, ElicitationPrompt } from './elicitationBroker';
import type { PermissionPresenter } from './permissionBroker';
import type { CreateElicitationResponse } from '../../acp';

export interface ChatSessions {
  /** The chat has a tab for this (scoped) session id. */
  showsSession(sessionId: string | undefined): boolean;
}

function untilAborted<T>(signal: AbortSignal, value: T): Promise<T> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(value);
    else signal.addEventListener('abort', () => resolve(value), { once: true });
  });
}

export class ChatPermissionPresenter implements PermissionPresenter {
  constructor(private readonly chat: ChatSessions) {}

  canPresent(prompt: { sessionId: string }): boolean {
    return this.chat.showsSession(prompt.sessionId);
  }

  present(_prompt: unknown, signal: AbortSignal): Promise<string | undefined> {
    return untilAborted(signal, undefined);
  }
}

export class ChatElicitationPresenter implements ElicitationPresenter {
  constructor(private readonly chat: ChatSessions) {}

  canPresent(prompt: ElicitationPrompt): boolean {
    // Request-scoped elicitations (before a session exists) have no chat tab to show them in.
    return this.chat.showsSession(prompt.sessionId);
  }

  present(_prompt: ElicitationPrompt, signal: AbortSignal): Promise<CreateElicitationResponse> {
    return untilAborted<CreateElicitationResponse>(signal, { action: 'cancel' });
  }
}
