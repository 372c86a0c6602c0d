// Local transcript store: history that survives a window reload even for agents that cannot load
// sessions. An index in the workspace Memento; one JSON file per session in a folder of the extension's
// global storage that the Memento names, bounded by count and by size so it never grows without limit.
//
// Not in `context.storageUri`: VS Code locks that folder per extension host, and a host that starts
// while the last one is still shutting down (a reload, remote windows above all) gets `<id>-1` instead,
// where the transcripts the index lists are missing. The Memento follows the workspace, so the folder
// it names does too.
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import type { Transcript } from '../../../shared/transcript';

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
const FOLDER_KEY = 'switchboard.transcriptFolder.v1';
const MAX_SESSIONS = 100;
/** A transcript larger than this is stored without its oldest items. */
const MAX_TRANSCRIPT_BYTES = 8 * 1024 * 1024;

export interface TranscriptStoreOptions {
  /** The workspace's Memento: the index, the open tabs and the name of the transcripts' folder. */
  memento: vscode.Memento;
  /** The extension's global storage; the transcripts live in `transcripts/<folder>` below it. */
  globalStorage: vscode.Uri;
  /** `context.storageUri`, where transcripts used to be written: read when a transcript is not found in the new folder. */
  legacyStorage?: vscode.Uri;
  log: vscode.LogOutputChannel;
}

export class TranscriptStore {
  private readonly memento: vscode.Memento;
  private readonly log: vscode.LogOutputChannel;
  private readonly folder: vscode.Uri;
  private readonly legacyFolder: vscode.Uri | undefined;

  constructor(o: TranscriptStoreOptions) {
    this.memento = o.memento;
    this.log = o.log;
    this.folder = vscode.Uri.joinPath(o.globalStorage, 'transcripts', this.folderName());
    this.legacyFolder = o.legacyStorage && vscode.Uri.joinPath(o.legacyStorage, 'transcripts');
  }

  /** Named once per workspace and kept in its Memento, so every extension host of the workspace agrees. */
  private folderName(): string {
    const stored = this.memento.get<unknown>(FOLDER_KEY);
    if (typeof stored === 'string' && /^[0-9a-f-]{36}$/.test(stored)) return stored;
    const name = randomUUID();
    void this.memento.update(FOLDER_KEY, name);
    return name;
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
    // Written aside and renamed over: a host reading it meanwhile (the next one, during a reload) sees the
    // old transcript or the new one, never half of one.
    const partial = vscode.Uri.joinPath(this.folder, `${encodeURIComponent(meta.key)}.${randomUUID()}.partial`);
    try {
      await vscode.workspace.fs.createDirectory(this.folder);
      await vscode.workspace.fs.writeFile(partial, Buffer.from(serialiseBounded(transcript)));
      await vscode.workspace.fs.rename(partial, this.fileFor(meta.key), { overwrite: true });
      const index = this.list().filter((m) => m.key !== meta.key);
      index.unshift(meta);
      const kept = index.slice(0, MAX_SESSIONS);
      for (const old of index.slice(MAX_SESSIONS)) await this.deleteFile(old.key);
      await this.memento.update(INDEX_KEY, kept);
    } catch (error) {
      this.log.warn(`Could not save the transcript of ${meta.key}: ${String(error)}`);
      await Promise.resolve(vscode.workspace.fs.delete(partial)).catch(() => undefined);
    }
  }

  async load(key: string): Promise<Transcript | undefined> {
    try {
      const bytes = await this.read(key);
      const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
      if (typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as Transcript).items)) return parsed as Transcript;
      this.log.warn(`The stored transcript ${key} is not a transcript; ignored.`);
    } catch (error) {
      this.log.warn(`Could not read the stored transcript ${key}: ${String(error)}`);
    }
    return undefined;
  }

  /** A session's checkpoints (snapshot ids per user message), kept beside its transcript and deleted with it. */
  async saveCheckpoints(key: string, value: unknown): Promise<void> {
    // writeFile creates the folder when the session's first turn comes before any transcript was saved.
    await vscode.workspace.fs.writeFile(this.fileFor(key, this.folder, 'checkpoints.json'), Buffer.from(JSON.stringify(value)));
  }

  /** The stored checkpoints of a session; undefined when it has none (or they cannot be read). */
  async loadCheckpoints(key: string): Promise<unknown> {
    try {
      return JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(this.fileFor(key, this.folder, 'checkpoints.json')))) as unknown;
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await this.deleteFile(key);
    await this.memento.update(
      INDEX_KEY,
      this.list().filter((m) => m.key !== key),
    );
  }

  private async read(key: string): Promise<Uint8Array> {
    try {
      return await vscode.workspace.fs.readFile(this.fileFor(key));
    } catch (error) {
      if (!this.legacyFolder || !(error instanceof vscode.FileSystemError && error.code === 'FileNotFound')) throw error;
      return await vscode.workspace.fs.readFile(this.fileFor(key, this.legacyFolder));
    }
  }

  private async deleteFile(key: string): Promise<void> {
    for (const folder of [this.folder, this.legacyFolder]) {
      if (!folder) continue;
      for (const suffix of ['json', 'checkpoints.json']) {
        try {
          await vscode.workspace.fs.delete(this.fileFor(key, folder, suffix));
        } catch {
          // Already gone.
        }
      }
    }
  }

  private fileFor(key: string, folder = this.folder, suffix = 'json'): vscode.Uri {
    return vscode.Uri.joinPath(folder, `${encodeURIComponent(key)}.${suffix}`);
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
