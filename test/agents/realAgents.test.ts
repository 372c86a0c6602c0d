// Real agents from npm (pinned in test/fixtures/realAgents/agents.json; `node scripts/install-real-agents.mjs`
// installs them), driven by our own protocol engine and process layer, offline and signed out (each
// agent's recipe, without credentials): claude-agent-acp must answer session/new with its modes and config
// options; gemini --acp and copilot --acp must answer -32000 with their auth methods.
// Not installed = FAIL with what to run (never a skip). Slow starts get generous timeouts.
import * as assert from 'assert';
import { AuthRequiredError, ErrorCode, type InitializeResult } from '../../src/acp';
import { claudeRecipe } from '../fixtures/realAgents/claude';
import { copilotRecipe } from '../fixtures/realAgents/copilot';
import { geminiRecipe } from '../fixtures/realAgents/gemini';
import { pinned, type RealAgentId } from '../fixtures/realAgents/recipe';
import { CLAUDE, CLAUDE_AGENT_ACP_VERSION, COPILOT, COPILOT_VERSION, GEMINI, GEMINI_CLI_VERSION, REAL_AGENT_TIMEOUT_MS } from './expected';
import { initialize, startRealAgent, stopRealAgent, withStderr, type RunningAgent } from './runRealAgent';

const STEP_TIMEOUT_MS = 2 * REAL_AGENT_TIMEOUT_MS;

/** The agent runs the pinned version, and the lists in expected.ts were measured against that pin. */
function assertPinned(id: RealAgentId, init: InitializeResult, measured: string): void {
  const pin = pinned(id).version;
  assert.strictEqual(measured, pin, `agents.json pins ${id} ${pin}, expected.ts was measured against ${measured}: re-measure test/agents/expected.ts`);
  assert.strictEqual(init.agentInfo?.version, pin, `the installed ${pinned(id).pkg} is not the pin: run \`node scripts/install-real-agents.mjs\``);
}

describe('real agents from npm (offline, no credentials)', function () {
  this.timeout(STEP_TIMEOUT_MS);

  describe('claude-agent-acp', () => {
    let agent: RunningAgent | undefined;
    let init: InitializeResult;

    before(async () => {
      agent = await startRealAgent(claudeRecipe);
      init = await initialize(agent);
    });
    after(async () => {
      if (agent) await stopRealAgent(agent);
    });

    it(`is the pinned version ${CLAUDE_AGENT_ACP_VERSION} and offers its terminal logins`, () => {
      assertPinned('claude', init, CLAUDE_AGENT_ACP_VERSION);
      assert.strictEqual(init.protocolVersion, 1);
      assert.deepStrictEqual(init.authMethods.map((m) => ({ id: m.id, type: m.type })), CLAUDE.authMethods);
    });

    it('answers session/new offline with exactly its modes and config options', async () => {
      const session = await withStderr(agent!, agent!.connection.newSession({ cwd: agent!.cwd }, { timeoutMs: REAL_AGENT_TIMEOUT_MS }));
      assert.ok(session.sessionId.length > 0, 'a session id');
      assert.strictEqual(session.modes?.currentModeId, CLAUDE.currentModeId);
      assert.deepStrictEqual(session.modes.availableModes.map((m) => [m.id, m.name]), CLAUDE.modes);
      const options = session.configOptions ?? [];
      assert.deepStrictEqual(
        options.map((o) => [o.id, o.category, o.kind, o.currentValue]),
        CLAUDE.configOptions,
      );
      const values = (id: string) => {
        const option = options.find((o) => o.id === id);
        return option?.kind === 'select' ? option.options.map((v) => v.value) : [];
      };
      assert.deepStrictEqual(values('mode'), CLAUDE.modeIds, 'the mode option offers the same ids as the modes');
      assert.deepStrictEqual(values('model'), CLAUDE.modelIds);
      assert.deepStrictEqual(values('effort'), CLAUDE.effortIds);
      assert.strictEqual(session.models, undefined, 'no legacy models list: the model is a config option only');
    });

    it('stops with its whole process tree (the Claude Code CLI it started included)', async () => {
      const { tree, survivors } = await stopRealAgent(agent!);
      agent = undefined;
      assert.ok(tree.length >= 2, `the agent started the Claude Code CLI as a child: tree ${tree.join(', ')}`);
      assert.deepStrictEqual(survivors, [], `left running: ${survivors.join(', ')}`);
    });
  });

  describe('gemini --acp', () => {
    let agent: RunningAgent | undefined;
    let init: InitializeResult;

    before(async () => {
      agent = await startRealAgent(geminiRecipe);
      init = await initialize(agent);
    });
    after(async () => {
      if (agent) await stopRealAgent(agent);
    });

    it(`is the pinned version ${GEMINI_CLI_VERSION} and advertises exactly its auth methods`, () => {
      assertPinned('gemini', init, GEMINI_CLI_VERSION);
      assert.deepStrictEqual(init.authMethods.map((m) => [m.id, m.name, m.type]), GEMINI.authMethods);
    });

    it('rejects session/new with AuthRequiredError (-32000) carrying the methods from initialize', async () => {
      const call = agent!.connection.newSession({ cwd: agent!.cwd }, { timeoutMs: REAL_AGENT_TIMEOUT_MS });
      const error = await call.then(
        (result) => assert.fail(`session/new succeeded without credentials: ${JSON.stringify(result)}`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof AuthRequiredError, `expected AuthRequiredError, got ${String(error)}\n${agent!.process.stderrTail().slice(-20).join('\n')}`);
      assert.strictEqual(error.code, ErrorCode.AuthRequired);
      assert.strictEqual(error.method, 'session/new');
      assert.deepStrictEqual(error.authMethods.map((m) => [m.id, m.name, m.type]), GEMINI.authMethods);
      assert.deepStrictEqual(error.authMethods, init.authMethods, 'the same methods (with their _meta) as initialize advertised');
    });

    it("stops with its whole process tree: one process, as the preset's env keeps the CLI from running itself again", async () => {
      const { tree, survivors } = await stopRealAgent(agent!);
      agent = undefined;
      assert.deepStrictEqual(tree.length, 1, `no relaunched child: tree ${tree.join(', ')}`);
      assert.deepStrictEqual(survivors, [], `left running: ${survivors.join(', ')}`);
    });
  });

  describe('copilot --acp', () => {
    let agent: RunningAgent | undefined;
    let init: InitializeResult;

    before(async () => {
      agent = await startRealAgent(copilotRecipe);
      init = await initialize(agent);
    });
    after(async () => {
      if (agent) await stopRealAgent(agent);
    });

    it(`is the pinned version ${COPILOT_VERSION} and offers its login through the terminal-auth hint only`, () => {
      assertPinned('copilot', init, COPILOT_VERSION);
      const methods = init.authMethods.map((m) => {
        const hint = (m._meta as { 'terminal-auth'?: { command?: string; args?: string[] } } | undefined)?.['terminal-auth'];
        return [m.id, m.name, m.type, hint?.args];
      });
      assert.deepStrictEqual(methods, COPILOT.authMethods);
      const hint = (init.authMethods[0]._meta as { 'terminal-auth': { command: string } })['terminal-auth'];
      assert.match(hint.command, /copilot(\.exe)?$/, 'the hint runs the native binary');
    });

    it('rejects session/new with AuthRequiredError (-32000); the methods come from initialize', async () => {
      const error = await agent!.connection.newSession({ cwd: agent!.cwd }, { timeoutMs: REAL_AGENT_TIMEOUT_MS }).then(
        (result) => assert.fail(`session/new succeeded without credentials: ${JSON.stringify(result)}`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof AuthRequiredError, `expected AuthRequiredError, got ${String(error)}`);
      assert.strictEqual(error.method, 'session/new');
      assert.deepStrictEqual(error.authMethods, init.authMethods);
    });

    it('stops with its whole process tree (the npm loader and the native binary)', async () => {
      const { tree, survivors } = await stopRealAgent(agent!);
      agent = undefined;
      assert.ok(tree.length >= 2, `loader and binary: tree ${tree.join(', ')}`);
      assert.deepStrictEqual(survivors, [], `left running: ${survivors.join(', ')}`);
    });
  });
});
