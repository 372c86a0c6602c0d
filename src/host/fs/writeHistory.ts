/**
 * What each agent write replaced, per session / turn / path: the base for the diff review (Keep / Undo per
 * turn) and the place where a user's unsaved text survives when the agent overwrites a dirty buffer.
 * Pure (no `vscode`). Bounded: past `maxBytes` the oldest records are dropped first.
 */

export interface WriteRecord {
  sessionId: string;
  turnId: string;
  /** Real (symlink-resolved) absolute path. */
  path: string;
  /** The text before this write (the editor buffer when open, unsaved edits included); null: no file. */
  before: string | null;
  after: string;
  /** True when the buffer had unsaved user edits: `before` holds them and `diskBefore` what was on disk. */
  hadUnsavedChanges: boolean;
  diskBefore?: string | null;
  at: number;
  seq: number;
}

export type NewWriteRecord = Omit<WriteRecord, 'at' | 'seq'>;

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

const turnKey = (sessionId: string, turnId: string): string => `${sessionId}\0${turnId}`;

function sizeOf(r: WriteRecord): number {
  return 2 * ((r.before?.length ?? 0) + r.after.length + (r.diskBefore?.length ?? 0)) + 200;
}

export class WriteHistory {
  private readonly byTurn = new Map<string, WriteRecord[]>();
  private readonly order: WriteRecord[] = [];
  private bytes = 0;
  private seq = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_BYTES) {}

  record(r: NewWriteRecord): WriteRecord {
    const rec: WriteRecord = { ...r, at: Date.now(), seq: ++this.seq };
    const key = turnKey(r.sessionId, r.turnId);
    const list = this.byTurn.get(key) ?? [];
    list.push(rec);
    this.byTurn.set(key, list);
    this.order.push(rec);
    this.bytes += sizeOf(rec);
    this.evict();
    return rec;
  }

  /** Every write of the turn, oldest first. */
  forTurn(sessionId: string, turnId: string): readonly WriteRecord[] {
    return this.byTurn.get(turnKey(sessionId, turnId)) ?? [];
  }

  /** The paths the turn wrote, in first-write order. */
  paths(sessionId: string, turnId: string): string[] {
    return [...new Set(this.forTurn(sessionId, turnId).map((r) => r.path))];
  }

  /** The first write of the path in the turn: its `before` is the content before the turn touched it. */
  baseline(sessionId: string, turnId: string, path: string): WriteRecord | undefined {
    return this.forTurn(sessionId, turnId).find((r) => r.path === path);
  }

  /** The most recent write of the path in the session, whatever the turn. */
  latest(sessionId: string, path: string): WriteRecord | undefined {
    for (let i = this.order.length - 1; i >= 0; i--) {
      const r = this.order[i];
      if (r.sessionId === sessionId && r.path === path) return r;
    }
    return undefined;
  }

  clearTurn(sessionId: string, turnId: string): void {
    this.remove((r) => r.sessionId === sessionId && r.turnId === turnId);
  }

  clearSession(sessionId: string): void {
    this.remove((r) => r.sessionId === sessionId);
  }

  get byteSize(): number {
    return this.bytes;
  }

  private remove(match: (r: WriteRecord) => boolean): void {
    for (let i = this.order.length - 1; i >= 0; i--) {
      if (match(this.order[i])) this.drop(i);
    }
  }

  private evict(): void {
    // Keep at least the newest record, however large.
    while (this.bytes > this.maxBytes && this.order.length > 1) this.drop(0);
  }

  private drop(index: number): void {
    const [rec] = this.order.splice(index, 1);
    this.bytes -= sizeOf(rec);
    const key = turnKey(rec.sessionId, rec.turnId);
    const list = (this.byTurn.get(key) ?? []).filter((r) => r !== rec);
    if (list.length > 0) this.byTurn.set(key, list);
    else this.byTurn.delete(key);
  }
}
