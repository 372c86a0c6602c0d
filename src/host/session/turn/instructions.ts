// Standing instructions for every session: `switchboard.instructions` (text) and the file named by
// `switchboard.instructionsFile` (relative to the first workspace folder), sent as `systemPrompt` to agents
// that take one. Workspace values of either setting apply only once the user confirmed them (an agent can
// write .vscode/settings.json). The file is read from its live buffer when open; a missing file, one that is
// not UTF-8 text or one past the size cap is said in the session header, never silently changed.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InstructionsView } from '../../../shared/chatState';
import type { WorkspaceSettingsGate } from '../../permissions/workspaceSettingsGate';

/** Longer instructions are cut here (a system prompt eats the context window of every turn). */
export const MAX_INSTRUCTIONS_CHARS = 32 * 1024;

export interface StandingInstructions {
  /** What is sent, when there is anything. */
  text?: string;
  /** Where it came from, for the header ("user settings", "workspace settings", the file's path). */
  sources: string[];
  /** What could not be used, for the header. */
  problems: string[];
}

export class SessionInstructions {
  constructor(
    private readonly settings: Pick<WorkspaceSettingsGate, 'read'>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async read(): Promise<StandingInstructions> {
    const parts: string[] = [];
    const sources: string[] = [];
    const problems: string[] = [];
    const text = this.settings.read<unknown>('instructions');
    for (const [value, source] of [[text.user, 'user settings'], [text.workspace, 'workspace settings']] as const) {
      if (typeof value === 'string' && value.trim()) {
        parts.push(value.trim());
        sources.push(source);
      }
    }
    const file = this.settings.read<unknown>('instructionsFile');
    const named = [file.workspace, file.user].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (named) {
      const fromFile = await readInstructionsFile(named.trim());
      if (fromFile.text) {
        parts.push(fromFile.text);
        sources.push(fromFile.label);
      }
      if (fromFile.problem) {
        problems.push(fromFile.problem);
        this.log.warn(`instructions: ${fromFile.problem}`);
      }
    }
    let joined = parts.join('\n\n');
    if (joined.length > MAX_INSTRUCTIONS_CHARS) {
      joined = joined.slice(0, MAX_INSTRUCTIONS_CHARS);
      problems.push(`The instructions were cut to their first ${MAX_INSTRUCTIONS_CHARS / 1024} KB.`);
    }
    return joined ? { text: joined, sources, problems } : { sources, problems };
  }
}

/** What the header shows for `instructions` with an agent that does (or does not) take a system prompt. */
export function instructionsView(instructions: StandingInstructions, agentTakesThem: boolean): InstructionsView | undefined {
  if (!instructions.text && instructions.problems.length === 0) return undefined;
  return { sent: !!instructions.text && agentTakesThem, supported: agentTakesThem, sources: instructions.sources, problems: instructions.problems };
}

async function readInstructionsFile(named: string): Promise<{ text?: string; label: string; problem?: string }> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = path.isAbsolute(named) ? vscode.Uri.file(named) : folder ? vscode.Uri.joinPath(folder, named) : undefined;
  const label = named;
  if (!uri) return { label, problem: `The instructions file ${named} is relative, and no folder is open.` };
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return { text: open.getText().trim(), label };
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch {
    return { label, problem: `The instructions file ${named} was not found.` };
  }
  // Reading past the cap is pointless; the cut is said once the parts are joined.
  const head = bytes.subarray(0, MAX_INSTRUCTIONS_CHARS * 4);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(head.length < bytes.length ? trimPartialUtf8(head) : head);
    return { text: text.trim(), label };
  } catch {
    return { label, problem: `The instructions file ${named} is not UTF-8 text: it was not sent.` };
  }
}

/** `bytes` without a UTF-8 sequence cut at its end. */
function trimPartialUtf8(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  let back = 0;
  while (end > 0 && back < 4 && (bytes[end - 1] & 0xc0) === 0x80) {
    end--;
    back++;
  }
  if (end > 0 && bytes[end - 1] >= 0xc0) end--;
  return bytes.subarray(0, end);
}
