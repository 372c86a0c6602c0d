// The session reducer as a pure `(Transcript, update) => Transcript` function, for tests that compare
// transcripts. Each call copies the items array (O(n)).
import { TranscriptState, type SessionUpdate } from '../../../src/acp';
import type { StopReason, Transcript } from '../../../src/shared/transcript';

function copy(transcript: Transcript): Transcript {
  return { ...transcript, items: transcript.items.slice() };
}

export function reduceTranscript(transcript: Transcript, update: SessionUpdate): Transcript {
  const next = copy(transcript);
  new TranscriptState(next).apply(update);
  return next;
}

export function recordTurnEnd(transcript: Transcript, stopReason: StopReason): Transcript {
  const next = copy(transcript);
  new TranscriptState(next).recordTurnEnd(stopReason);
  return next;
}
