// What a Session needs from the session layer around it (SessionConnector implements it).
import type * as vscode from 'vscode';
import type { AcpClientConnection } from '../../acp';
import type { Checkpoints } from './checkpoints/checkpoints';
import type { PromptSources } from './turn/promptBuilder';
import type { Session } from './session';
import type { TurnFiles } from './turn/turnFiles';

/** What a session needs from the session layer around it. */
export interface SessionHost {
  readonly log: vscode.LogOutputChannel;
  readonly turnFiles: TurnFiles;
  /** Each user message's checkpoint: the turn's baseline, kept with the transcript. */
  readonly checkpoints: Checkpoints;
  /** The session's live connection; binds the session again (load, else new) when its agent process changed. */
  connect(session: Session): Promise<AcpClientConnection>;
  /** Runs a request of the agent; on -32000 the agent waits for sign-in (`afterSignIn`: what its banner promises). */
  withAuth<T>(agentId: string, request: () => Promise<T>, afterSignIn?: string): Promise<T>;
  /** True when the session's agent process crashed (its banner says why). */
  agentCrashed(agentId: string): boolean;
  /** The agent did not confirm a cancellation: offer to restart it. */
  offerRestart(agentId: string): void;
  /** Answers the session's pending permission and elicitation requests with cancelled. */
  cancelRequests(scopedId: string): void;
  /** Kills the terminals the agent created for the session. */
  disposeTerminals(scopedId: string): void;
  /** Stops the session's IDE tools' token (the agent side of the session is gone). */
  releaseTools(key: string): void;
  /** The turn started or ended (an ended turn saves the transcript). */
  turnChanged(session: Session): void;
  /** What the session's mentions are read from when a message is sent. */
  promptSources(session: Session): PromptSources;
}
