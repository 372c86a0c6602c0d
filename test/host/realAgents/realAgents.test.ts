// Real agents from npm inside VS Code, through the extension's own backend (what the chat panel shows):
// claude-agent-acp's modes and config options on a new session, and gemini --acp's sign-in methods when
// it answers -32000. Offline and signed out (each agent's recipe in test/fixtures/realAgents, without
// credentials). The agents are installed by `node scripts/install-real-agents.mjs`; when they are missing
// this FAILS and says so.
import * as assert from 'assert';
import type { SwitchboardApi } from '../../../src/extension';
import { setSettings, waitFor } from '../index';
import { api, stopAgent, transcriptOf, waitForAgentStatus } from '../integration/helpers';
import { CLAUDE, GEMINI, REAL_AGENT_TIMEOUT_MS } from '../../agents/expected';
import { makeTempDir, removeDir, signedOutEnv } from '../../agents/realAgentSetup';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { geminiRecipe } from '../../fixtures/realAgents/gemini';
import { agentCommand, blankedCredentials, type RealAgentRecipe } from '../../fixtures/realAgents/recipe';
import { processesRunning } from './agentProcesses';

const CLAUDE_NAME = 'Claude Agent (real)';
const GEMINI_NAME = 'Gemini (real)';

/**
 * The definition's env is added to the extension host's environment (it cannot remove variables): any
 * credential variable the host has blanked out, then the recipe's signed-out env (empty HOME, offline).
 */
function agentEnv(recipe: RealAgentRecipe, home: string, cwd: string): Record<string, string> {
  return { ...blankedCredentials(), ...signedOutEnv(recipe, home, cwd) };
}

/** The agent's command line, and the file that identifies its processes (the bin entry, or the native binary). */
function commandOf(recipe: RealAgentRecipe): { command: string; args: string[]; needle: string } {
  const { command, args } = agentCommand(recipe.id);
  return { command, args, needle: args[0] ?? command };
}

describe('real agents from npm in the extension (offline, no credentials)', function () {
  this.timeout(2 * REAL_AGENT_TIMEOUT_MS);
  let sb: SwitchboardApi;
  let restore: (() => Promise<void>) | undefined;
  const bins: string[] = [];
  const tempDirs: string[] = [];

  before(async () => {
    const claude = commandOf(claudeRecipe);
    const gemini = commandOf(geminiRecipe);
    bins.push(claude.needle, gemini.needle);
    const [claudeHome, geminiHome, project] = ['home', 'home', 'project'].map((kind) => makeTempDir(`switchboard-real-${kind}-`));
    tempDirs.push(claudeHome, geminiHome, project);
    sb = await api();
    restore = await setSettings({
      'switchboard.agents': {
        // The recipes take a project folder for files they may write there (signed out, neither does).
        [CLAUDE_NAME]: { command: claude.command, args: claude.args, env: agentEnv(claudeRecipe, claudeHome, project) },
        [GEMINI_NAME]: { command: gemini.command, args: gemini.args, env: agentEnv(geminiRecipe, geminiHome, project) },
      },
    });
    await waitFor(() => [CLAUDE_NAME, GEMINI_NAME].every((n) => sb.backend.agents.views().some((a) => a.id === n)), 'both real agents in the picker');
  });

  after(async () => {
    if (sb) for (const name of [CLAUDE_NAME, GEMINI_NAME]) await stopAgent(sb, name).catch(() => undefined);
    await restore?.();
    tempDirs.forEach(removeDir);
  });

  it('Claude Agent: a new session shows exactly the modes and config options the agent advertised', async () => {
    const id = await sb.backend.lifecycle.open(CLAUDE_NAME);
    const t = transcriptOf(sb, id);
    assert.strictEqual(t.modes?.currentModeId, CLAUDE.currentModeId);
    assert.deepStrictEqual(t.modes.availableModes.map((m) => [m.id, m.name]), CLAUDE.modes);
    assert.deepStrictEqual(
      t.configOptions.map((o) => [o.id, o.category, o.kind, o.currentValue]),
      CLAUDE.configOptions,
    );
    const values = (optionId: string) => {
      const option = t.configOptions.find((o) => o.id === optionId);
      return option?.kind === 'select' ? option.options.map((v) => v.value) : [];
    };
    assert.deepStrictEqual(values('mode'), CLAUDE.modeIds);
    assert.deepStrictEqual(values('model'), CLAUDE.modelIds);
    assert.deepStrictEqual(values('effort'), CLAUDE.effortIds);
    assert.strictEqual(t.models, undefined, '0.101.0 sends no legacy models list');
    assert.strictEqual(sb.backend.agents.views().find((a) => a.id === CLAUDE_NAME)?.status, 'ready');
  });

  it('Gemini: session/new is refused and the agent shows auth_required with exactly its sign-in methods', async () => {
    const sessionsBefore = sb.backend.sessions.snapshots().length;
    await assert.rejects(sb.backend.lifecycle.open(GEMINI_NAME), (e: unknown) => {
      // The extension is a separate bundle: check the code, not the class.
      assert.strictEqual((e as { code?: unknown }).code, -32000, `expected -32000 auth required, got ${String(e)}`);
      return true;
    });
    await waitForAgentStatus(sb, GEMINI_NAME, 'auth_required', REAL_AGENT_TIMEOUT_MS);
    const agent = sb.backend.agents.views().find((a) => a.id === GEMINI_NAME);
    assert.deepStrictEqual(agent?.authMethods?.map((m) => [m.id, m.name, m.kind]), GEMINI.authMethods);
    assert.strictEqual(sb.backend.sessions.snapshots().length, sessionsBefore, 'no session was opened');
  });

  it('stopping the agents leaves none of their processes running', async function () {
    if (process.platform !== 'linux') this.skip(); // processesRunning reads /proc
    for (const bin of bins) assert.ok((await processesRunning([bin])).length > 0, `a process running ${bin} before the stop`);
    for (const name of [CLAUDE_NAME, GEMINI_NAME]) await stopAgent(sb, name);
    const left = await processesRunning(bins);
    assert.deepStrictEqual(left, [], `agent processes still running: ${left.join(', ')}`);
  });
});
