// Sign-in with the real agents from npm, signed out, through the extension: each agent's methods are
// offered where the chat shows them; Gemini's API-key method asks for the key (kept in secret storage),
// opens the session it was asked for and a turn completes; Claude refuses the first prompt and the
// methods show, with the prompt recorded once. Another agent's session is open throughout.
import * as assert from 'assert';
import type { SwitchboardApi } from '../../../src/extension';
import { AnthropicApi } from '../../fixtures/modelEndpoint/anthropic';
import { GeminiApi } from '../../fixtures/modelEndpoint/gemini';
import { openaiChat } from '../../fixtures/modelEndpoint/openaiChat';
import { openaiResponses } from '../../fixtures/modelEndpoint/openaiResponses';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { codex } from '../../fixtures/realAgents/codex';
import { geminiRecipe } from '../../fixtures/realAgents/gemini';
import { qwenRecipe } from '../../fixtures/realAgents/qwen';
import { waitFor } from '../index';
import { api, prompt, textOf } from '../integration/helpers';
import { agentText, defineRealAgent, lastTurn, REAL_TURN_TIMEOUT_MS, runTurn, transcript, view, type HostRealAgent } from './realAgentTurns';

describe('real agents from npm: sign-in through the extension, another session open', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS);
  let sb: SwitchboardApi;
  const agents: HostRealAgent[] = [];
  let other: HostRealAgent;

  const methodsOf = (name: string) => sb.backend.agents.views().find((a) => a.id === name);

  before(async () => {
    sb = await api();
    // A signed-in agent with a session open, as a user would have.
    other = await defineRealAgent(sb, codex, [openaiResponses], { permissions: 'auto' });
    agents.push(other);
    await sb.backend.lifecycle.open(other.name);
  });

  after(async () => {
    sb.backend.agents.authUi = { showInputBox: async () => undefined };
    for (const a of agents.reverse()) await a.dispose();
  });

  it('Gemini without a key: New session shows its methods; the API-key method asks for the key, opens the session, and a turn completes', async () => {
    const gemini = await defineRealAgent(sb, geminiRecipe, [new GeminiApi()], { permissions: 'ask', signedOut: true });
    agents.push(gemini);
    const active = sb.backend.sessions.activeTabId();
    await assert.rejects(sb.chat.controller.newSession(gemini.name), /API key is missing|auth/i);
    const waiting = await waitFor(() => (methodsOf(gemini.name)?.status === 'auth_required' ? methodsOf(gemini.name) : undefined), 'Gemini to wait for sign-in');
    assert.deepStrictEqual(waiting.authMethods?.map((m) => m.id), ['oauth-personal', 'gemini-api-key', 'vertex-ai', 'gateway']);
    assert.strictEqual(waiting.afterSignIn, 'starts the session');
    assert.strictEqual(sb.backend.sessions.activeTabId(), active, 'no other session was opened instead');

    const asked: string[] = [];
    sb.backend.agents.authUi = {
      showInputBox: async (options) => {
        asked.push(String(options.title));
        return 'AIzaSy-entered-in-the-input-box';
      },
    };
    await sb.backend.agents.authenticate(gemini.name, 'gemini-api-key');
    assert.strictEqual(asked.length, 1, 'the key was asked for once');
    const sessionId = await waitFor(() => sb.backend.sessions.snapshots().find((s) => s.view.agentId === gemini.name)?.view.sessionId, 'the Gemini session opened after sign-in');
    assert.strictEqual(sb.backend.sessions.activeTabId(), sessionId, 'the new Gemini session is the active one');
    assert.strictEqual(methodsOf(gemini.name)?.status, 'ready');
    const result = await runTurn(sb, sessionId, 'Say hello.', [{ text: 'Hello from Gemini, signed in.' }], gemini.endpoint);
    assert.strictEqual(result.error, undefined);
    assert.match(agentText(lastTurn(transcript(sb, sessionId))), /Hello from Gemini, signed in\./);
    const keyed = gemini.endpoint.requests.filter((r) => r.kind === 'main');
    assert.ok(keyed.length > 0, 'the turn reached the endpoint');
  });

  it("Claude without a key: the first prompt shows its terminal methods, the session says why, and the prompt is recorded once", async () => {
    const claude = await defineRealAgent(sb, claudeRecipe, [new AnthropicApi()], { permissions: 'ask', signedOut: true });
    agents.push(claude);
    const sessionId = await sb.backend.lifecycle.open(claude.name);
    await sb.backend.sessions.require(sessionId).prompt(prompt('Hello before signing in'));
    const waiting = await waitFor(() => (methodsOf(claude.name)?.status === 'auth_required' ? methodsOf(claude.name) : undefined), 'Claude to wait for sign-in');
    assert.deepStrictEqual(waiting.authMethods?.map((m) => [m.id, m.kind]), [['claude-ai-login', 'terminal'], ['console-login', 'terminal']]);
    assert.strictEqual(waiting.afterSignIn, 'sends your message again');
    assert.match(view(sb, sessionId)?.error?.message ?? '', /sign in/i);
    const prompts = transcript(sb, sessionId).items.filter((i) => i.kind === 'user_message').map(textOf);
    assert.deepStrictEqual(prompts, ['Hello before signing in']);
    assert.strictEqual(claude.endpoint.mainRequests().length, 0, 'nothing reached the model');
  });

  it("Qwen's and Codex's methods are offered when they are signed out", async () => {
    const qwen = await defineRealAgent(sb, qwenRecipe, [openaiChat], { permissions: 'ask', signedOut: true });
    agents.push(qwen);
    await assert.rejects(sb.backend.lifecycle.open(qwen.name), /auth/i);
    const q = await waitFor(() => (methodsOf(qwen.name)?.status === 'auth_required' ? methodsOf(qwen.name) : undefined), 'Qwen to wait for sign-in');
    assert.deepStrictEqual(q.authMethods?.map((m) => [m.id, m.kind]), [['openai', 'terminal']]);

    const signedOutCodex = await defineRealAgent(sb, { ...codex, label: 'Codex (signed out)' }, [openaiResponses], { permissions: 'ask', signedOut: true });
    agents.push(signedOutCodex);
    await assert.rejects(sb.backend.lifecycle.open(signedOutCodex.name), /auth/i);
    const c = await waitFor(() => (methodsOf(signedOutCodex.name)?.status === 'auth_required' ? methodsOf(signedOutCodex.name) : undefined), 'Codex to wait for sign-in');
    assert.deepStrictEqual(
      c.authMethods?.map((m) => [m.id, m.kind]),
      [
        ['chatgpt', 'agent'],
        ['codex-api-key', 'env_var'],
        ['openai-api-key', 'env_var'],
      ],
    );
  });
});
