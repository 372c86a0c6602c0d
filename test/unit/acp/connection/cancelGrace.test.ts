import * as assert from 'assert';
import { withCancelGrace } from '../../../../src/acp/connection/cancelGrace';
import type { PromptResult } from '../../../../src/acp/schema/agentResponses';
import { capturingLogger } from '../helpers';

function deferred(): { promise: Promise<PromptResult>; resolve(r: PromptResult): void; reject(e: Error): void } {
  let resolve!: (r: PromptResult) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<PromptResult>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('acp: the cancel grace period', () => {
  it("passes the agent's answer through while nothing is cancelled, and sends no cancel", async () => {
    const turn = deferred();
    let cancels = 0;
    const result = withCancelGrace(turn.promise, { sessionId: 's', signal: new AbortController().signal, cancel: async () => void cancels++, logger: capturingLogger() });
    turn.resolve({ stopReason: 'end_turn' });
    assert.deepStrictEqual(await result, { stopReason: 'end_turn' });
    assert.strictEqual(cancels, 0);
  });

  it("on abort sends the cancel once and takes the agent's own answer when it comes within the grace", async () => {
    const turn = deferred();
    const controller = new AbortController();
    let cancels = 0;
    const result = withCancelGrace(turn.promise, { sessionId: 's', signal: controller.signal, cancel: async () => void cancels++, graceMs: 60_000, logger: capturingLogger() });
    controller.abort();
    assert.strictEqual(cancels, 1);
    turn.resolve({ stopReason: 'cancelled' });
    assert.deepStrictEqual(await result, { stopReason: 'cancelled' });
  });

  it('ends the turn locally when the agent does not answer within the grace, and logs it', async () => {
    const turn = deferred();
    const controller = new AbortController();
    const logger = capturingLogger();
    controller.abort();
    const result = await withCancelGrace(turn.promise, { sessionId: 's9', signal: controller.signal, cancel: async () => undefined, graceMs: 10, logger });
    assert.deepStrictEqual(result, { stopReason: 'cancelled', cancelledLocally: true });
    assert.ok(logger.lines.some((l) => l.includes('did not answer session/cancel for s9')));
  });

  it('a failing cancel is logged, the turn still ends; a failing turn rejects', async () => {
    const controller = new AbortController();
    const logger = capturingLogger();
    const result = withCancelGrace(deferred().promise, { sessionId: 's', signal: controller.signal, cancel: () => Promise.reject(new Error('pipe closed')), graceMs: 10, logger });
    controller.abort();
    assert.deepStrictEqual(await result, { stopReason: 'cancelled', cancelledLocally: true });
    assert.ok(logger.lines.some((l) => l.includes('session/cancel failed') && l.includes('pipe closed')));
    const failing = deferred();
    const rejected = withCancelGrace(failing.promise, { sessionId: 's', signal: new AbortController().signal, cancel: async () => undefined, logger });
    failing.reject(new Error('agent crashed'));
    await assert.rejects(rejected, /agent crashed/);
  });
});
