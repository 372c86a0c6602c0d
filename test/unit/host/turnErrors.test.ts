// A session's error banner and its Retry: what a failed turn says (banner, transcript, log) by how it failed,
// which failures can be sent again, and what clears them.
import * as assert from 'assert';
import { AuthRequiredError } from '../../../src/acp';
import type { ComposerPrompt } from '../../../src/shared/messages';
import { TurnErrors } from '../../../src/host/session/turn/turnErrors';

const message: ComposerPrompt = { text: 'fix the bug', mentions: [], images: [] };

describe('host: a session turn\'s errors and Retry', () => {
  let crashed = false;
  let recorded: string[];
  let logged: string[];
  let restarts: string[];
  let errors: TurnErrors;
  beforeEach(() => {
    crashed = false;
    recorded = [];
    logged = [];
    restarts = [];
    const host = { log: { error: (m: string) => void logged.push(m) }, agentCrashed: () => crashed, offerRestart: (id: string) => void restarts.push(id) };
    errors = new TurnErrors(host, { agentId: 'Fake', key: 's1', recordError: (m, d) => void recorded.push(d ? `${m} | ${d}` : m) });
  });

  it('an error: said once in the transcript and the banner, logged, and the message can be sent again', () => {
    errors.fail(new Error('boom'));
    errors.offerRetry(message, new Error('boom'));
    assert.deepStrictEqual(errors.error, { message: 'boom', retryable: true });
    assert.strictEqual(errors.failedPrompt, message);
    assert.deepStrictEqual(recorded, ['boom']);
    assert.strictEqual(logged.length, 1);
    errors.clear();
    assert.strictEqual(errors.error, undefined);
    assert.strictEqual(errors.failedPrompt, undefined);
  });

  it('sign-in required: the banner says so and nothing is offered again (the message goes after signing in)', () => {
    const error = new AuthRequiredError('session/prompt', 'Authentication required', undefined, []);
    errors.fail(error);
    errors.offerRetry(message, error);
    assert.match(errors.error?.message ?? '', /Fake needs you to sign in/);
    assert.strictEqual(errors.error?.retryable, undefined);
    assert.strictEqual(errors.failedPrompt, undefined);
    assert.deepStrictEqual(recorded, []);
  });

  it('the agent crashed: "Not sent" in the banner only (the crash banner has the details)', () => {
    crashed = true;
    errors.fail('connection closed');
    assert.deepStrictEqual(errors.error, { message: 'Not sent: connection closed' });
    assert.deepStrictEqual(recorded, []);
  });

  it('a cancellation the agent did not confirm: said in the transcript with the way forward, and a restart offered', () => {
    errors.cancelUnconfirmed();
    assert.deepStrictEqual(recorded, ['Fake did not confirm the cancellation; the turn was ended here. | If the agent keeps working, use Restart Agent.']);
    assert.deepStrictEqual(restarts, ['Fake']);
  });

  it('an error shown for something else the user asked stays until cleared', () => {
    errors.show({ message: 'A session title cannot be empty.' });
    assert.deepStrictEqual(errors.error, { message: 'A session title cannot be empty.' });
    errors.clear();
    assert.strictEqual(errors.error, undefined);
  });
});
