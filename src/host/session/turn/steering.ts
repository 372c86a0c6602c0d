// Steer: a message sent into the turn that is running, for agents that take it (`_session/steering`). The
// session hands over what a steer needs and follows a turn the agent started with it (`startedNewTurn`); the
// outcome goes back to the chat, which sends a message the agent left to us (`promptRequired`) or did not take
// (an error, no answer in time) through its prompt queue.
import type * as vscode from 'vscode';
import { TimeoutError, errorMessage, type AcpClientConnection, type ContentBlock } from '../../../acp';
import type { SteerAnswer } from '../../../chat/chatBackend';
import type { TurnState } from '../../../shared/chatState';
import type { BuiltPrompt } from './promptBuilder';

/** How long a steer waits for the agent's answer before the message is kept for the next turn instead. */
export const STEER_TIMEOUT_MS = 10_000;

/** The session a steer goes to. */
export interface SteerTarget {
  readonly agentId: string;
  readonly acpSessionId: string;
  readonly turn: TurnState;
  readonly detached: boolean;
  note(title: string, description: string, severity: 'info' | 'warning'): void;
}

/** What the session lends a steer. */
export interface SteerHooks {
  readonly log: Pick<vscode.LogOutputChannel, 'warn'>;
  connect(): Promise<AcpClientConnection>;
  /** The message as content blocks (promptBuilder.ts). */
  build(): Promise<BuiltPrompt>;
  /** The agent took the message: it shows in the transcript here, marked steered. */
  recordSteered(blocks: ContentBlock[]): void;
}

/** What became of a steer; an agent that runs a turn of its own with the message names the connection it runs on. */
export type SteerResult =
  | { readonly answer: Exclude<SteerAnswer, 'startedNewTurn'> }
  | { readonly answer: 'startedNewTurn'; readonly connection: AcpClientConnection };

/**
 * Steers the running turn with the session's message (`hooks.build`). No turn running (it ended, or is being
 * stopped) or an agent that does not steer: `promptRequired`, the message is the next prompt. The agent's
 * error or silence: `failed`, said in the chat; the chat keeps the message.
 */
export async function steerTurn(target: SteerTarget, hooks: SteerHooks, timeoutMs = STEER_TIMEOUT_MS): Promise<SteerResult> {
  const promptRequired = { answer: 'promptRequired' } as const;
  if (target.turn !== 'running' || target.detached) return promptRequired;
  try {
    const connection = await hooks.connect();
    if (!connection.supports('_session/steering')) return promptRequired;
    const built = await hooks.build();
    // Something the agent cannot take (an image): the normal prompt path says what it left out.
    if (built.dropped.length > 0 || built.blocks.length === 0) return promptRequired;
    const { outcome } = await connection.steer(target.acpSessionId, built.blocks, { timeoutMs });
    if (outcome === 'promptRequired') return promptRequired;
    hooks.recordSteered(built.blocks);
    if (outcome === 'injected') return { answer: outcome };
    target.note(`${target.agentId} started a new turn with your message`, 'Its turn had already ended.', 'info');
    return { answer: outcome, connection };
  } catch (error) {
    const why = error instanceof TimeoutError ? `${target.agentId} did not answer within ${Math.round(timeoutMs / 1000)} s` : errorMessage(error);
    hooks.log.warn(`Steering ${target.acpSessionId} failed: ${why}`);
    target.note('Your message was not steered into the turn', `${why}. It waits in the queue below and is sent when the turn ends; you can edit or remove it there.`, 'warning');
    return { answer: 'failed' };
  }
}
