// The pure form of the session reducer. Each call copies the items array (O(n)), so use
// TranscriptState for long streams; both produce the same transcript.
import type { StopReason, Transcript } from '../../shared/transcript';
import type { SessionUpdate } from '../schema/sessionUpdate';
import { TranscriptState } from './transcriptState';

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
