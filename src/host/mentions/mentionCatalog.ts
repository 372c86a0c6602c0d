// The `@` groups' candidates and the reading of each mention kind: loaded with the first `@` query or the
// first message with a mention (mentionSources.ts), so none of it weighs on the chat's startup.
import * as vscode from 'vscode';
import type { MentionCandidate, MentionRef } from '../../shared/chatState';
import { labelThenDetail, rankByFuzzy } from '../../shared/fuzzy';
import type { FileAccessPolicy } from '../fs/fileConfinement';
import { changesCandidates, changesContent } from './changesMention';
import { checkAccess, fileContent, type MentionContent } from './mentionContent';
import { problemsCandidates, problemsContent } from './problemsMention';
import { sessionCandidates, sessionContent, type SessionTranscripts } from './sessionMention';
import { symbolCandidates, symbolContent } from './symbolMention';
import type { TerminalHistory } from './terminalHistory';
import { terminalCandidates, terminalContent } from './terminalMention';

/** The most candidates each group offers for one query. */
const PER_GROUP = 20;

export interface CatalogContext {
  log: vscode.LogOutputChannel;
  terminals: TerminalHistory;
  fileAccess: FileAccessPolicy;
  /** The session's cwd and additional directories. */
  folders: readonly string[];
  /** The agent announced `promptCapabilities.embeddedContext`. */
  embed: boolean;
  transcripts: SessionTranscripts;
}

/** Candidates of the context groups for `query`; a group that fails is logged and left out. */
export async function queryGroups(query: string, c: Pick<CatalogContext, 'log' | 'terminals' | 'transcripts'>, currentSession: string | undefined): Promise<MentionCandidate[]> {
  const safe = async (group: string, get: () => MentionCandidate[] | Promise<MentionCandidate[]>): Promise<MentionCandidate[]> => {
    try {
      return await get();
    } catch (e) {
      c.log.warn(`@ ${group}: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  };
  const groups = await Promise.all([
    safe('Symbols', () => symbolCandidates(query)),
    safe('Problems', () => problemsCandidates()),
    safe('Changes', () => changesCandidates()),
    safe('Terminal', () => terminalCandidates(c.terminals)),
    safe('Sessions', () => sessionCandidates(c.transcripts, currentSession)),
  ]);
  // Symbols come from the provider already matched to the query.
  return groups.flatMap((g, i) => (i === 0 ? g : rankByFuzzy(query, g, labelThenDetail, { limit: PER_GROUP })));
}

/** One mention's content as it is now; a MentionError (nothing is sent) when it cannot be read. */
export async function readMention(mention: MentionRef, c: CatalogContext): Promise<MentionContent> {
  const uri = vscode.Uri.parse(mention.uri);
  switch (mention.kind) {
    case 'problems':
      return problemsContent(uri, mention.label);
    case 'changes':
      await checkAccess(uri, mention.label, c.folders, c.fileAccess);
      return changesContent(uri, mention.label);
    case 'terminal':
      return terminalContent(mention.uri, mention.label, c.terminals);
    case 'session':
      return sessionContent(mention.uri, mention.label, c.transcripts);
    case 'symbol':
      await checkAccess(uri, mention.label, c.folders, c.fileAccess);
      return symbolContent(mention, c.embed);
    default:
      return fileContent(mention, c.folders, c.fileAccess, c.embed);
  }
}
