// Steer from the composer: the backend sends the message into the running turn. A message the agent left to
// us (no turn was running) or did not take (its error, no answer in time) goes through the prompt queue, so
// it is sent once, as the next prompt, and can be edited or removed there meanwhile.
import type { ComposerPrompt } from '../shared/messages';
import type { ChatSession, SteerAnswer } from './chatBackend';
import type { PromptQueue } from './promptQueue';

export async function steerMessage(
  session: Pick<ChatSession, 'steer'>,
  queue: Pick<PromptQueue, 'submit'>,
  tabId: string,
  prompt: ComposerPrompt,
  warn: (message: string) => void,
): Promise<void> {
  let answer: SteerAnswer;
  try {
    answer = await session.steer(prompt);
  } catch (error) {
    warn(`Steering the message failed; it was queued instead: ${error instanceof Error ? error.message : String(error)}`);
    answer = 'failed';
  }
  if (answer === 'promptRequired' || answer === 'failed') queue.submit(tabId, prompt);
}
