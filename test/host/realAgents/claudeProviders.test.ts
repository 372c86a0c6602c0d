// Model provider settings with the real Claude Agent from npm (claude-agent-acp advertises `providers` and
// implements providers/list, set and disable) through the extension: the list shows `main` routed to the
// scripted endpoint the agent was started with; setting it to a second scripted endpoint on 127.0.0.1 (with
// a header kept as a secret) sends the next session's turn there; Claude's own refusals (a base URL nothing
// answers at, an apiType it cannot use without more settings) are said in the chat and change nothing; a
// restart sets the kept choice again.
import * as assert from 'assert';
import * as net from 'net';
import type { AgentProvidersView } from '../../../src/shared/chatState';
import { AnthropicApi } from '../../fixtures/modelEndpoint/anthropic';
import { ModelEndpoint } from '../../fixtures/modelEndpoint/endpoint';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { waitFor } from '../index';
import { agentText, lastTurn, REAL_TURN_TIMEOUT_MS, runTurn, transcript, withRealAgent } from './realAgentTurns';

const HEADER_VALUE = 'gateway-token-5d1c';

describe('real agent Claude Agent (real): model provider settings through the extension', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS);
  // Its own name: the kept provider choice belongs to this agent only, never to the other real-Claude tests.
  const ctx = withRealAgent({ ...claudeRecipe, label: 'Claude Agent (real, providers)' }, () => [new AnthropicApi()], { permissions: 'auto' });
  let second: ModelEndpoint;

  before(async () => {
    second = await ModelEndpoint.start([new AnthropicApi()]);
    ctx.moreLog = () => `\n--- second endpoint ---\n${second.describeLog()}`;
  });

  after(async () => {
    await second?.close();
  });

  const settings = (): AgentProvidersView | undefined => ctx.sb.backend.agents.views().find((a) => a.id === ctx.agent.name)?.providers;
  const main = () => settings()?.providers?.find((p) => p.providerId === 'main');

  /** Claude runs with a session open (whichever test runs first starts it, so one test can run alone). */
  async function started(): Promise<void> {
    ctx.sessionId ??= await ctx.sb.backend.lifecycle.open(ctx.agent.name);
    await waitFor(() => main(), 'providers/list', 60_000);
  }

  it('lists main, routed to the endpoint Claude was started with', async () => {
    await started();
    assert.deepStrictEqual(main(), { providerId: 'main', supported: ['anthropic', 'bedrock', 'vertex'], required: false, current: { apiType: 'anthropic', baseUrl: ctx.agent.endpoint.url } });
    assert.strictEqual(settings()?.error, undefined);
  });

  it('sets main to a second endpoint (with a header); the next new session is answered by it', async () => {
    await started();
    await ctx.sb.backend.providers.run(ctx.agent.name, { kind: 'set', providerId: 'main', apiType: 'anthropic', baseUrl: second.url, headers: [{ name: 'X-Gateway-Token', value: HEADER_VALUE }] });
    assert.strictEqual(settings()?.error, undefined, settings()?.error);
    assert.match(settings()?.notice ?? '', /main now sends model calls to http:\/\/127\.0\.0\.1:\d+ \(anthropic\)\. Sessions started from now on use it/);
    assert.deepStrictEqual(main()?.current, { apiType: 'anthropic', baseUrl: second.url }, 'providers/list shows the new base URL');

    const firstBefore = ctx.agent.endpoint.mainRequests().length;
    const id = await ctx.sb.backend.lifecycle.open(ctx.agent.name);
    const result = await runTurn(ctx.sb, id, 'Which endpoint answers?', [], second);
    assert.strictEqual(result.error, undefined, `the turn failed: ${result.error}`);
    assert.match(agentText(lastTurn(transcript(ctx.sb, id))), /Done\./, 'the answer came from the second endpoint');
    const request = second.mainRequests()[0];
    assert.strictEqual(request.headers['x-gateway-token'], HEADER_VALUE, 'the header went with the model call');
    assert.strictEqual(ctx.agent.endpoint.mainRequests().length, firstBefore, 'the first endpoint got no turn');
  });

  it("says in the chat when Claude rejects a change (a base URL nothing answers at; vertex without its settings); nothing changes", async () => {
    await started();
    const before = main()?.current;
    const closedPort = await freePort();
    await ctx.sb.backend.providers.run(ctx.agent.name, { kind: 'set', providerId: 'main', apiType: 'anthropic', baseUrl: `http://127.0.0.1:${closedPort}`, headers: [] });
    assert.match(settings()?.error ?? '', /^Claude Agent \(real, providers\) rejected the provider change: (Internal error: )?Model discovery for provider "main" failed: .*\(-32603\)\. Its provider settings stay as they were\./);
    assert.deepStrictEqual(main()?.current, before);

    await ctx.sb.backend.providers.run(ctx.agent.name, { kind: 'set', providerId: 'main', apiType: 'vertex', baseUrl: 'https://vertex.example', headers: [] });
    assert.match(settings()?.error ?? '', /rejected the provider change: (Invalid params: )?vertex apiType requires non-empty `_meta\.claudeCode\.vertex\.projectId` and `_meta\.claudeCode\.vertex\.region` \(-32602\)\. Its provider settings stay as they were\./);
    assert.deepStrictEqual(main()?.current, before);
  });

  it('sets the kept choice again after a restart (Claude alone would go back to its start-up endpoint)', async () => {
    await started();
    if (main()?.current?.baseUrl !== second.url) {
      await ctx.sb.backend.providers.run(ctx.agent.name, { kind: 'set', providerId: 'main', apiType: 'anthropic', baseUrl: second.url, headers: [{ name: 'X-Gateway-Token', value: HEADER_VALUE }] });
    }
    await ctx.sb.backend.agents.restart(ctx.agent.name);
    await waitFor(() => main()?.current?.baseUrl === second.url, 'main routed to the second endpoint after the restart', 60_000);
    assert.strictEqual(settings()?.error, undefined);
  });
});

/** A 127.0.0.1 port nothing listens on (taken, then closed). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
