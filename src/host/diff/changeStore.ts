// The per-turn changed-files model, pure: which files the agent changed in which turn, and what each
// looked like before. No `vscode` here; the tracker feeds it and reads the live text. It serialises to
// plain JSON so pending changes survive a window reload.

export interface ChangeEntry {
  key: string;
  sessionId: string;
  turnId: string;
  /** File URI string. */
  uri: string;
  /** Content before the turn's first change (unsaved user text included); null = did not exist; undefined = unknown. */
  baseline: string | null | undefined;
  /** Last content the agent wrote; null = the agent deleted it; undefined = unknown (agent's own tools). */
  agentText: string | null | undefined;
  /** Insertion order, so turns and files list in the order they happened. */
  seq: number;
}

export interface TurnRef {
  sessionId: string;
  turnId: string;
}

interface PersistedEntry {
  sessionId: string;
  turnId: string;
  uri: string;
  /** 'unknown' encodes `undefined`, which JSON cannot hold. */
  baseline: string | null | 'unknown';
  baselineKnown: boolean;
  agentText: string | null;
  agentTextKnown: boolean;
  seq: number;
}

export interface PersistedChanges {
  version: 1;
  entries: PersistedEntry[];
}

export function entryKey(sessionId: string, turnId: string, uri: string): string {
  return JSON.stringify([sessionId, turnId, uri]);
}

export class ChangeStore {
  private readonly entries = new Map<string, ChangeEntry>();
  private seq = 0;

  /** Record that the agent changed `uri` in a turn. The first baseline of a turn wins: later writes in
   * the same turn only move the agent's text, so Undo goes back to before the turn. */
  record(input: { sessionId: string; turnId: string; uri: string; before: string | null | undefined; after: string | null | undefined }): ChangeEntry {
    const key = entryKey(input.sessionId, input.turnId, input.uri);
    const existing = this.entries.get(key);
    if (existing) {
      if (existing.baseline === undefined && input.before !== undefined) existing.baseline = input.before;
      if (input.after !== undefined) existing.agentText = input.after;
      return existing;
    }
    const entry: ChangeEntry = {
      key,
      sessionId: input.sessionId,
      turnId: input.turnId,
      uri: input.uri,
      baseline: input.before,
      agentText: input.after,
      seq: ++this.seq,
    };
    this.entries.set(key, entry);
    return entry;
  }

  get(key: string): ChangeEntry | undefined {
    return this.entries.get(key);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  all(): ChangeEntry[] {
    return [...this.entries.values()].sort((a, b) => a.seq - b.seq);
  }

  forUri(uri: string): ChangeEntry[] {
    return this.all().filter((e) => e.uri === uri);
  }

  forTurn(turn: TurnRef): ChangeEntry[] {
    return this.all().filter((e) => e.sessionId === turn.sessionId && e.turnId === turn.turnId);
  }

  /** Turns with pending changes, oldest first. */
  turns(): TurnRef[] {
    const seen = new Map<string, TurnRef>();
    for (const e of this.all()) {
      const k = JSON.stringify([e.sessionId, e.turnId]);
      if (!seen.has(k)) seen.set(k, { sessionId: e.sessionId, turnId: e.turnId });
    }
    return [...seen.values()];
  }

  latestTurn(): TurnRef | undefined {
    const all = this.all();
    const last = all[all.length - 1];
    return last ? { sessionId: last.sessionId, turnId: last.turnId } : undefined;
  }

  /** Entries for the same file recorded after `entry` (a later turn built on it). */
  laterForSameUri(entry: ChangeEntry): ChangeEntry[] {
    return this.all().filter((e) => e.uri === entry.uri && e.seq > entry.seq);
  }

  remove(key: string): ChangeEntry | undefined {
    const e = this.entries.get(key);
    this.entries.delete(key);
    return e;
  }

  /** Put entries back (undoing a decision); keeps their original order. */
  restore(entries: readonly ChangeEntry[]): void {
    for (const e of entries) {
      this.entries.set(e.key, { ...e });
      this.seq = Math.max(this.seq, e.seq);
    }
  }

  setBaseline(key: string, baseline: string | null): void {
    const e = this.entries.get(key);
    if (e) e.baseline = baseline;
  }

  toJSON(maxChars: number): PersistedChanges {
    const entries: PersistedEntry[] = [];
    for (const e of this.all()) {
      // Oversized snapshots are not persisted: workspaceState is not a blob store. Such an entry comes
      // back after a reload as "keep only".
      const size = (e.baseline?.length ?? 0) + (e.agentText?.length ?? 0);
      const fits = size <= maxChars;
      entries.push({
        sessionId: e.sessionId,
        turnId: e.turnId,
        uri: e.uri,
        baseline: fits && e.baseline !== undefined ? e.baseline : 'unknown',
        baselineKnown: fits && e.baseline !== undefined,
        agentText: fits && e.agentText !== undefined ? e.agentText : null,
        agentTextKnown: fits && e.agentText !== undefined,
        seq: e.seq,
      });
    }
    return { version: 1, entries };
  }

  load(data: PersistedChanges | undefined): void {
    if (!data || data.version !== 1 || !Array.isArray(data.entries)) return;
    for (const p of data.entries) {
      if (typeof p.uri !== 'string' || typeof p.sessionId !== 'string' || typeof p.turnId !== 'string') continue;
      const key = entryKey(p.sessionId, p.turnId, p.uri);
      this.entries.set(key, {
        key,
        sessionId: p.sessionId,
        turnId: p.turnId,
        uri: p.uri,
        baseline: p.baselineKnown ? p.baseline : undefined,
        agentText: p.agentTextKnown ? p.agentText : undefined,
        seq: p.seq,
      });
      this.seq = Math.max(this.seq, p.seq);
    }
  }
}
