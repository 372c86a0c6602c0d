// "Fork from here" with a steered message in the turn: the steered message belongs to the turn it was sent
// into, so the fork keeps the whole turn (up to the next prompt), and forking from the steered message itself
// keeps that turn too.
import * as assert from 'node:assert/strict';
import { forkedTranscript } from '../../../src/host/session/tabs/forkTranscript';
import { emptyTranscript, type Transcript, type TranscriptItem } from '../../../src/shared/transcript';

const text = (t: string) => [{ type: 'text' as const, text: t }];
const items: TranscriptItem[] = [
  { kind: 'user_message', id: 'u1', content: text('write a poem') },
  { kind: 'agent_message', id: 'a1', content: text('about the sea') },
  { kind: 'user_message', id: 'u2', content: text('mountains instead'), steered: true },
  { kind: 'agent_message', id: 'a2', content: text('about mountains') },
  { kind: 'turn_end', id: 'e1', stopReason: 'end_turn', empty: false },
  { kind: 'user_message', id: 'u3', content: text('next prompt') },
  { kind: 'agent_message', id: 'a3', content: text('answer') },
];
const source: Transcript = { ...emptyTranscript('s'), items };

describe('fork from here: steered messages', () => {
  for (const from of ['u1', 'u2']) {
    it(`from ${from === 'u1' ? 'the prompt' : 'the steered message'}: the whole turn, steered message included`, () => {
      const forked = forkedTranscript(source, 'Poems', 'fork', from);
      assert.deepEqual(forked.transcript.items.map((i) => i.id), ['u1', 'a1', 'u2', 'a2', 'e1']);
      assert.match(forked.notice.title, /at this message/);
    });
  }
});
