// The `@` groups beyond files (Symbols, Problems, Changes, Terminal, Sessions) and the reading of every
// mention when its message is sent. One per window; the session layer hands down what only it knows
// (the session's folders, its transcripts) with each call.
import * as vscode from 'vscode';
import type { MentionCandidate, MentionRef } from '../../shared/chatState';
import { labelThenDetail, rankByFuzzy } from '../../shared/fuzzy';
import type { FileAccessPolicy } from '../fs/fileConfinement';
import { changesCandidates, changesContent } from './changesMention';
import { checkAccess, fileContent, type MentionContent } from './mentionContent';
import { problemsCandidates, problemsContent } from './problemsMention';
import { BUDGET_SETTING, budgetFrom } from './promptBudget';
import { sessionCandidates, sessionContent, type SessionTranscripts } from './sessionMention';
import { symbolCandidates, symbolContent } from './symbolMention';
import { TerminalHistory } from './terminalHistory';
import { terminalCandidates, terminalContent } from './terminalMention';

/** The most candidates each group offers for one query. */
const PER_GROUP = 20;

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

  /** Candidates of the context groups for `query`; a group that fails is logged and left out. */
  async query(query: string, transcripts: SessionTranscripts, currentSession: string | undefined): Promise<MentionCandidate[]> {
    const groups = await Promise.all([
      symbolCandidates(query),
      this.safe('Problems', () => problemsCandidates()),
      this.safe('Changes', () => changesCandidates()),
      this.safe('Terminal', () => terminalCandidates(this.terminals)),
      this.safe('Sessions', () => sessionCandidates(transcripts, currentSession)),
    ]);
    return groups.flatMap((g, i) => (i === 0 ? g : rankByFuzzy(query, g, labelThenDetail, { limit: PER_GROUP })));
  }

  /** One mention's content as it is now; a MentionError (nothing is sent) when it cannot be read. */
  async read(mention: MentionRef, context: MentionReadContext): Promise<MentionContent> {
    const uri = vscode.Uri.parse(mention.uri);
    switch (mention.kind) {
      case 'problems':
        return problemsContent(uri, mention.label);
      case 'changes':
        await checkAccess(uri, mention.label, context.folders, this.o.fileAccess());
        return changesContent(uri, mention.label);
      case 'terminal':
        return terminalContent(mention.uri, mention.label, this.terminals);
      case 'session':
        return sessionContent(mention.uri, mention.label, context.transcripts);
      case 'symbol':
        await checkAccess(uri, mention.label, context.folders, this.o.fileAccess());
        return symbolContent(mention, context.embed);
      default:
        return fileContent(mention, context.folders, this.o.fileAccess(), context.embed);
    }
  }

  /** The prompt budget in bytes (`switchboard.maxPromptBytes`), read on every message. */
  budgetBytes(): number {
    return budgetFrom(vscode.workspace.getConfiguration().get(BUDGET_SETTING));
  }

  private async safe(group: string, get: () => MentionCandidate[] | Promise<MentionCandidate[]>): Promise<MentionCandidate[]> {
    try {
      return await get();
    } catch (e) {
      this.o.log.warn(`@ ${group}: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  }

  dispose(): void {
    this.terminals.dispose();
  }
}
