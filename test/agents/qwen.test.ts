// The real Qwen Code from npm (`qwen --acp`) signed out, through Switchboard's own process and protocol
// layers. Its whole turn is a row of wholeTurn.table.ts.
import * as assert from 'assert';
import { AuthRequiredError } from '../../src/acp';
import { listDescendants } from '../../src/agents';
import { openaiChat } from '../fixtures/modelEndpoint/openaiChat';
import { QWEN_OPENAI_METHOD, qwenRecipe } from '../fixtures/realAgents/qwen';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';

describe('Qwen Code 0.24.4 (real)', function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  it('signed out: session/new answers -32000 with its one method, the OpenAI key (a terminal method)', async () => {
    client = await TurnClient.start({ recipe: qwenRecipe, handlers: [openaiChat], signedOut: true });
    const error = await client.openSession().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof AuthRequiredError, `expected AuthRequiredError, got ${String(error)}`);
    assert.deepStrictEqual(
      error.authMethods.map((m) => [m.id, m.name, (m as { _meta?: unknown })._meta]),
      [[QWEN_OPENAI_METHOD, 'Use OpenAI API key', { type: 'terminal', args: ['--auth-type=openai'] }]],
    );
    assert.strictEqual(client.endpoint.requests.length, 0);
  });

  it("runs as the bin's wrapper and one CLI: the preset's env keeps the CLI from running itself again", async () => {
    client = await TurnClient.start({ recipe: qwenRecipe, handlers: [openaiChat], signedOut: true });
    await client.openSession().catch(() => undefined);
    // cli-entry.js always runs cli.js in a child (with --expose-gc); relaunched, that child has one more.
    const descendants = await listDescendants(client.process.pid);
    assert.strictEqual(descendants.length, 1, `no relaunched CLI: ${JSON.stringify(descendants)}`);
  });
});
