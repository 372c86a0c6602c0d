// Rate-limit windows from usage_update._meta: what Claude sends, merged per window, bad input skipped.
import * as assert from 'node:assert/strict';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import { applyTranscriptOps } from '../../../src/shared/transcriptOps';
import { emptyTranscript } from '../../../src/shared/transcript';
import { rateLimitsOf } from '../../../src/acp/schema/rateLimits';

const usage = (meta?: unknown) => parseSessionUpdate({ sessionUpdate: 'usage_update', used: 1000, size: 200000, ...(meta === undefined ? {} : { _meta: meta }) });

describe('rate limits from usage_update._meta', () => {
  it('reads Claude\'s window: type, status, utilization as a fraction, reset in epoch ms', () => {
    const windows = rateLimitsOf({ '_claude/rateLimit': { status: 'allowed_warning', resetsAt: 1_800_000_000, rateLimitType: 'five_hour', utilization: 0.78, isUsingOverage: false } });
    assert.deepEqual(windows, [{ window: 'five_hour', status: 'allowed_warning', utilization: 0.78, resetsAt: 1_800_000_000_000 }]);
  });

  it('keeps the latest report of each window and the other windows, on the host and in the webview copy', () => {
    const state = new TranscriptState('s');
    const copy = emptyTranscript('s');
    const apply = (u: ReturnType<typeof usage>) => {
      const ops = state.apply(u);
      const next = applyTranscriptOps(copy, ops);
      Object.assign(copy, next);
    };
    apply(usage({ '_claude/rateLimit': { status: 'allowed', rateLimitType: 'five_hour', utilization: 0.1 } }));
    apply(usage({ '_claude/rateLimit': { status: 'allowed', rateLimitType: 'seven_day', utilization: 0.4 } }));
    apply(usage({ '_claude/rateLimit': { status: 'rejected', rateLimitType: 'five_hour', utilization: 1 } }));
    apply(usage());
    const expected = [
      { window: 'five_hour', status: 'rejected', utilization: 1 },
      { window: 'seven_day', status: 'allowed', utilization: 0.4 },
    ];
    assert.deepEqual(state.transcript.rateLimits, expected);
    assert.deepEqual(copy.rateLimits, expected);
    assert.deepEqual(state.transcript.usage, { used: 1000, size: 200000 });
  });

  it('reads several windows listed in one report', () => {
    const windows = rateLimitsOf({ '_claude/rateLimit': { status: 'allowed', rateLimitType: 'five_hour', unifiedWindows: [{ rateLimitType: 'seven_day', status: 'allowed', utilization: 20 }, { rateLimitType: 'five_hour', status: 'x' }] } });
    assert.deepEqual(windows?.map((w) => [w.window, w.utilization]), [['five_hour', undefined], ['seven_day', 0.2]]);
  });

  it('skips what is malformed and never fails the update', () => {
    for (const meta of [null, 'x', 42, { '_claude/rateLimit': 'x' }, { '_claude/rateLimit': { status: 'allowed' } }, { '_claude/rateLimit': { rateLimitType: 7 } }, { other: {} }]) {
      assert.equal(rateLimitsOf(meta), undefined, JSON.stringify(meta));
      const update = usage(meta);
      assert.equal(update.sessionUpdate, 'usage_update');
      const state = new TranscriptState('s');
      state.apply(update);
      assert.equal(state.transcript.rateLimits, undefined);
    }
    const odd = rateLimitsOf({ '_claude/rateLimit': { rateLimitType: 'five_hour', utilization: -1, resetsAt: 'soon', status: 5 } });
    assert.deepEqual(odd, [{ window: 'five_hour', status: 'allowed' }]);
  });
});
