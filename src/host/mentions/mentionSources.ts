// The `@` groups beyond files (Symbols, Problems, Changes, Terminal, Sessions) and the reading of every
// mention when its message is sent. One per window, from startup, so the terminals' last commands are
// recorded from then on; the groups themselves load with the first use (mentionCatalog.ts). The session
// layer hands down what only it knows (the session's folders, its transcripts) with each call.
import * as vscode from 'vscode';
import type { MentionCandidate, MentionRef } from '../../shared/chatState';
import type { FileAccessPolicy } from '../fs/fileConfinement';
import type { MentionContent } from './mentionContent';
import type { SessionTranscripts } from './sessionMention';
import { TerminalHistory } from './terminalHistory';

const loadCatalog = () => import('./mentionCatalog');

export interface MentionSourcesOptions {
  log: vscode.LogOutputChannel;
  /** `switchboard.fileAccess` as it applies now (the user's, or a workspace value the user confirmed). */
  fileAccess(): FileAccessPolicy;
}

export interface MentionReadContext {
  /** The session's cwd and additional directories. */
  folders: readonly string[];
  /** The agent announced `promptCapabilities.embeddedContext`. */
  embed: boolean;
  transcripts: SessionTranscripts;
}

export class MentionSources implements vscode.Disposable {
  readonly terminals: TerminalHistory;

  constructor(private readonly o: MentionSourcesOptions) {
    this.terminals = new TerminalHistory(o.log);
  }

  /** Candidates of the context groups for `query`. */
  async query(query: string, transcripts: SessionTranscripts, currentSession: string | undefined): Promise<MentionCandidate[]> {
    const { queryGroups } = await loadCatalog();
    return queryGroups(query, { log: this.o.log, terminals: this.terminals, transcripts }, currentSession);
  }

  /** One mention's content as it is now; a MentionError (nothing is sent) when it cannot be read. */
  async read(mention: MentionRef, context: MentionReadContext): Promise<MentionContent> {
    const { readMention } = await loadCatalog();
    return readMention(mention, { ...context, log: this.o.log, terminals: this.terminals, fileAccess: this.o.fileAccess() });
  }

  dispose(): void {
    this.terminals.dispose();
  }
}
