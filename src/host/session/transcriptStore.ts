// Local transcript store: history that survives a window reload even for agents that cannot load
// sessions. One JSON file per session under the extension's (workspace) storage, an index in a
// Memento, bounded by count and by size so it never grows without limit.
import * as vscode from 'vscode';
import type { Transcript } from '../../shared/transcript';

export interface StoredSessionMeta {
  key: string;
  agentId: string;
  /** The agent's session id the transcript belongs to (for session/load or resume). */
  acpSessionId: string;
  title: string;
  cwd: string;
  updatedAt: string;
}

const INDEX_KEY = 'switchboard.history.v1';
const OPEN_KEY = 'switchboard.openTabs.v1';
const MAX_SESSIONS = 100;
/** A transcript larger than this is stored without its oldest items. */
const MAX_TRANSCRIPT_BYTES = 8 * 1024 * 1024;

export class TranscriptStore {
  private readonly folder: vscode.Uri;

  constructor(
    private readonly memento: vscode.Memento,
    storageUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.folder = vscode.Uri.joinPath(storageUri, 'transcripts');
  }

  /** The tabs open when the window went away, to reopen after a reload. */
  openTabs(): { keys: string[]; active?: string } {
    const value = this.memento.get<{ keys?: unknown; active?: unknown }>(OPEN_KEY);
    const keys = Array.isArray(value?.keys) ? value.keys.filter((k): k is string => typeof k === 'string') : [];
    return { keys, active: typeof value?.active === 'string' ? value.active : undefined };
  }

  async setOpenTabs(keys: string[], active: string | undefined): Promise<void> {
    await this.memento.update(OPEN_KEY, { keys, active });
  }

  list(): StoredSessionMeta[] {
    const index = this.memento.get<StoredSessionMeta[]>(INDEX_KEY, []);
    return Array.isArray(index) ? [...index].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)) : [];
  }

  get(key: string): StoredSessionMeta | undefined {
    return this.list().find((m) => m.key === key);
  }

  async save(meta: StoredSessionMeta, transcript: Transcript): Promise<void> {
    try {
      await vscode.workspace.fs.createDirectory(this.folder);
      await vscode.workspace.fs.writeFile(this.fileFor(meta.key), Buffer.from(serialiseBounded(transcript)));
      const index = this.list().filter((m) => m.key !== meta.key);
      index.unshift(meta);
      const kept = index.slice(0, MAX_SESSIONS);
      for (const old of index.slice(MAX_SESSIONS)) await this.deleteFile(old.key);
      await this.memento.update(INDEX_KEY, kept);
    } catch (error) {
      this.log.warn(`Could not save the transcript of ${meta.key}: ${String(error)}`);
    }
  }

  async load(key: string): Promise<Transcript | undefined> {
    try {
      const bytes = await vscode.workspace.fs.readFile(this.fileFor(key));
      const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
      if (typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as Transcript).items)) return parsed as Transcript;
      this.log.warn(`The stored transcript ${key} is not a transcript; ignored.`);
    } catch (error) {
      this.log.warn(`Could not read the stored transcript ${key}: ${String(error)}`);
    }
    return undefined;
  }

  async delete(key: string): Promise<void> {
    await this.deleteFile(key);
    await this.memento.update(
      INDEX_KEY,
      this.list().filter((m) => m.key !== key),
    );
  }

  private async deleteFile(key: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(this.fileFor(key));
    } catch {
      // Already gone.
    }
  }

  private fileFor(key: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, `${encodeURIComponent(key)}.json`);
  }
}

/** Drops the oldest items until the JSON fits; the newest part of a conversation matters most. */
export function serialiseBounded(transcript: Transcript, maxBytes = MAX_TRANSCRIPT_BYTES): string {
  let json = JSON.stringify(transcript);
  if (json.length <= maxBytes) return json;
  let items = transcript.items;
  while (json.length > maxBytes && items.length > 1) {
    items = items.slice(Math.ceil(items.length / 4));
    json = JSON.stringify({ ...transcript, items });
  }
  return json;
}
