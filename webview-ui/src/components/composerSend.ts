// Where a message from the composer goes and what goes with it: to the new session the user asked for while
// it starts (not to the tab still shown), else to the session shown, else to a new session of the picked
// agent; `steer` puts it into the running turn instead of the queue.
import type { ChatStore, Draft, SessionState } from '../store';

/** Whether there is anything to send. */
export function canSend(draft: Draft): boolean {
  return Boolean(draft.text.trim() || draft.images.length || draft.mentions.length);
}

export function postDraft(store: ChatStore, session: SessionState | undefined, draft: Draft, steer: boolean): void {
  const text = draft.text;
  // Only mentions still referenced in the text (or with no text at all) go out.
  const mentions = draft.mentions.filter((m) => m.attached || text.includes(`@${m.label}`) || !text.trim());
  const starting = store.startingSession;
  const target = starting ? undefined : session;
  const agentId = starting ? starting.agentId : store.selectedAgentId();
  const prompt = { text, mentions, images: draft.images };
  if (steer && target) store.post({ type: 'steer', sessionId: target.view.sessionId, prompt });
  else
    store.post({
      type: 'prompt',
      ...(target ? { sessionId: target.view.sessionId } : {}),
      ...(!target && agentId ? { agentId } : {}),
      ...(starting ? { newSessionRequestId: starting.requestId } : {}),
      prompt,
    });
  store.ui.rememberSent(text);
}
