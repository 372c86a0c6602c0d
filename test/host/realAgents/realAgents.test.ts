// Real agents from npm inside VS Code, through the extension's own backend (what the chat panel shows):
// claude-agent-acp's modes and config options on a new session, and gemini --acp's sign-in methods when
// it answers -32000. Offline, with an empty HOME and no credentials. The agents are installed by
// `node scripts/install-real-agents.mjs`; when they are missing this FAILS and says so.
import * as assert from 'assert';
import type { SwitchboardApi } from '../../../src/extension';
import { setSettings, waitFor } from '../index';
import { api, transcriptOf, waitForAgentStatus } from '../integration/helpers';
import { CLAUDE, GEMINI, REAL_AGENT_TIMEOUT_MS } from '../../unit/realAgents/expected';
import { CLAUDE_AGENT_ACP, CREDENTIAL_ENV, GEMINI_CLI, isolatedAgentEnv, makeTempDir, realAgentBin, removeDir } from '../../unit/realAgents/realAgentSetup';
import { processesRunning, stopAgent } from './agentProcesses';

const CLAUDE_NAME = 'Claude Agent (real)';
const GEMINI_NAME = 'Gemini (real)';

/**
 * The definition's env is added to the extension host's environment (it cannot remove variables):
 * an empty HOME, and any credential variable the host has blanked out.
 */
function agentEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of Object.keys(process.env)) if (CREDENTIAL_ENV.test(key)) env[key] = '';
  return { ...env, ...isolatedAgentEnv(home) };
}

describe('real agents from npm in the extension (offline, no credentials)', function () {
  this.timeout(2 * REAL_AGENT_TIMEOUT_MS);
  let sb: SwitchboardApi;
  let restore: (() => Promise<void>) | undefined;
  const bins: string[] = [];
  const homes: string[] = [];

  before(async () => {
    bins.push(realAgentBin(CLAUDE_AGENT_ACP), realAgentBin(GEMINI_CLI));
    homes.push(makeTempDir('switchboard-real-home-'), makeTempDir('switchboard-real-home-'));
    sb = await api();
    restore = await setSettings({
      'switchboard.agents': {
        [CLAUDE_NAME]: { command: process.execPath, args: [bins[0]], env: agentEnv(homes[0]) },
        [GEMINI_NAME]: { command: process.execPath, args: [bins[1], '--acp'], env: agentEnv(homes[1]) },
      },
    });
    await waitFor(() => [CLAUDE_NAME, GEMINI_NAME].every((n) => sb.backend.getAgents().some((a) => a.id === n)), 'both real agents in the picker');
  });

  after(async () => {
    if (sb) for (const name of [CLAUDE_NAME, GEMINI_NAME]) await stopAgent(sb, name).catch(() => undefined);
    await restore?.();
    homes.forEach(removeDir);
  });

  it('Claude Agent: a new session shows exactly the modes and config options the agent advertised', async () => {
    const id = await sb.backend.newSession(CLAUDE_NAME);
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
    assert.deepStrictEqual(t.models?.availableModels.map((m) => m.modelId), CLAUDE.modelIds);
    assert.strictEqual(sb.backend.getAgents().find((a) => a.id === CLAUDE_NAME)?.status, 'ready');
  });

  it('Gemini: session/new is refused and the agent shows auth_required with exactly its sign-in methods', async () => {
    const sessionsBefore = sb.backend.getSessions().length;
    await assert.rejects(sb.backend.newSession(GEMINI_NAME), (e: unknown) => {
      // The extension is a separate bundle: check the code, not the class.
      assert.strictEqual((e as { code?: unknown }).code, -32000, `expected -32000 auth required, got ${String(e)}`);
      return true;
    });
    await waitForAgentStatus(sb, GEMINI_NAME, 'auth_required', REAL_AGENT_TIMEOUT_MS);
    const agent = sb.backend.getAgents().find((a) => a.id === GEMINI_NAME);
    assert.deepStrictEqual(agent?.authMethods?.map((m) => [m.id, m.name, m.kind]), GEMINI.authMethods);
    assert.strictEqual(sb.backend.getSessions().length, sessionsBefore, 'no session was opened');
  });

  it('stopping the agents leaves none of their processes running', async function () {
    if (process.platform !== 'linux') this.skip(); // processesRunning reads /proc
    for (const bin of bins) assert.ok((await processesRunning([bin])).length > 0, `a process running ${bin} before the stop`);
    for (const name of [CLAUDE_NAME, GEMINI_NAME]) await stopAgent(sb, name);
    const left = await processesRunning(bins);
    assert.deepStrictEqual(left, [], `agent processes still running: ${left.join(', ')}`);
  });
});
