// The transcripts' way to the webview: a snapshot once per session (on `init`, or when a session first
// appears), then the reducer's ops as they came, one sequenced message per session per batch. Nothing is
// diffed and nothing is buffered while the view is not ready: the next `init` is a snapshot.
import type { HostToWebviewMessage } from '../shared/messages';
import type { Transcript } from '../shared/transcript';
import type { TranscriptOp } from '../shared/transcriptOps';

interface SessionStream {
  /** The seq of the last ops message sent (0: the snapshot). */
  seq: number;
  /** Ops since the last flush; undefined when the session still needs its snapshot. */
  pending: TranscriptOp[] | undefined;
}

export class TranscriptSync {
  private readonly streams = new Map<string, SessionStream>();
  private readonly dirty = new Set<string>();

  /** `init` carries these sessions' whole transcripts: the streams start from there. */
  reset(sessionIds: Iterable<string>): void {
    this.streams.clear();
    this.dirty.clear();
    for (const id of sessionIds) this.streams.set(id, { seq: 0, pending: [] });
  }

  /** The view is gone: everything starts from the next `init`. */
  clear(): void {
    this.streams.clear();
    this.dirty.clear();
  }

  /** Ops of a session's transcript. Returns true when there is something to flush. */
  ops(sessionId: string, ops: readonly TranscriptOp[]): boolean {
    let stream = this.streams.get(sessionId);
    if (!stream) {
      // First sight of this session since `init`: its snapshot goes out and already holds these ops.
      stream = { seq: 0, pending: undefined };
      this.streams.set(sessionId, stream);
    } else if (stream.pending) {
      const pending = stream.pending;
      for (const op of ops) appendCoalesced(pending, op);
    }
    this.dirty.add(sessionId);
    return true;
  }

  /** A session appeared: its snapshot goes out with the next flush. */
  opened(sessionId: string): void {
    if (this.streams.has(sessionId)) return;
    this.streams.set(sessionId, { seq: 0, pending: undefined });
    this.dirty.add(sessionId);
  }

  closed(sessionId: string): void {
    this.streams.delete(sessionId);
    this.dirty.delete(sessionId);
  }

  /** The messages for what changed, appended to `out`. */
  collect(out: HostToWebviewMessage[], transcriptOf: (sessionId: string) => Transcript | undefined): void {
    for (const sessionId of this.dirty) {
      const stream = this.streams.get(sessionId);
      if (!stream) continue;
      if (stream.pending === undefined) {
        const transcript = transcriptOf(sessionId);
        if (!transcript) continue;
        // A copy of the items: the host's array keeps changing after this message is built.
        out.push({ type: 'transcriptReset', sessionId, transcript: { ...transcript, items: transcript.items.slice() } });
        stream.pending = [];
        stream.seq = 0;
      } else if (stream.pending.length > 0) {
        out.push({ type: 'transcriptOps', sessionId, seq: ++stream.seq, ops: stream.pending });
        stream.pending = [];
      }
    }
    this.dirty.clear();
  }
}

/** Consecutive text appends to the same block travel as one op. */
function appendCoalesced(pending: TranscriptOp[], op: TranscriptOp): void {
  const last = pending[pending.length - 1];
  if (op.op === 'appendText' && last?.op === 'appendText' && last.id === op.id && last.index === op.index && last.contentIndex === op.contentIndex) {
    pending[pending.length - 1] = { ...last, text: last.text + op.text };
    return;
  }
  pending.push(op);
}
