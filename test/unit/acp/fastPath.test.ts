// The hand-written fast path must agree exactly with the zod schema wherever it answers.
import * as assert from 'node:assert/strict';
import { fastParseSessionUpdate } from '../../../src/acp/schema/fastPath';
import { parseSessionUpdateWithZod } from '../../../src/acp/schema/sessionUpdate';

const BASE: Array<Record<string, unknown>> = [
  { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a' } },
  { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'b', annotations: { priority: 1 } }, messageId: 'm' },
  { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: '' }, messageId: 'm', _meta: { x: 1 } },
  { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x', _meta: {} } },
  { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' },
  { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'bogus', _meta: null },
  { sessionUpdate: 'tool_call_update', toolCallId: 't' },
];
const VALUES: unknown[] = [undefined, null, 0, 1, 'str', '', true, {}, [], { type: 'text' }, { type: 'image', mimeType: 'x', data: 'y' }];

function* variants(): Generator<Record<string, unknown>> {
  for (const base of BASE) {
    yield base;
    for (const key of [...Object.keys(base), 'messageId', 'status', 'title', 'content', 'extra', 'toolCallId']) {
      for (const value of VALUES) {
        const copy: Record<string, unknown> = { ...base };
        if (value === undefined) delete copy[key];
        else copy[key] = value;
        yield copy;
        if (typeof base.content === 'object') {
          for (const inner of ['type', 'text', 'annotations', 'uri']) {
            const deeper = { ...copy, content: { ...(base.content as object), [inner]: value } };
            yield deeper;
          }
        }
      }
    }
  }
}

describe('session/update fast path', () => {
  it('returns exactly what zod returns whenever it answers, and covers the hot shapes', () => {
    let answered = 0;
    let total = 0;
    for (const input of variants()) {
      total++;
      const fast = fastParseSessionUpdate(input);
      if (fast === undefined) continue;
      answered++;
      assert.deepStrictEqual(fast, parseSessionUpdateWithZod(input), JSON.stringify(input));
    }
    assert.ok(answered >= BASE.length, `${answered} of ${total}`);
    for (const input of BASE) assert.notEqual(fastParseSessionUpdate(input), undefined, JSON.stringify(input));
  });
});
