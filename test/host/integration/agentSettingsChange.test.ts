// An agent's launch settings changed while it runs, through the real extension with the fake agent: the
// running process keeps the ones it started with, the chat's view of the agent says which changed (its
// banner offers "Restart <agent> to apply"), and the restart it asks for runs the agent with the new ones.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { setSettings, waitFor } from '../index';
import { fakeAgent, prompt, withFakeAgents } from './helpers';

const AGENT = 'Settings change agent (host test)';

describe('an agent whose settings change while it runs', function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-settings-change-'));
  const recordBefore = path.join(dir, 'before.jsonl');
  const afterRestart = path.join(dir, 'after.jsonl');
  const ctx = withFakeAgents({ [AGENT]: [`--record=${recordBefore}`] });
  const agentView = () => ctx.sb.backend.agents.views().find((a) => a.id === AGENT);
  const prompts = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"session/prompt"')).length : 0);

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps running as started, says what changed and offers the restart that applies it', async () => {
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt('first'));
    assert.strictEqual(prompts(recordBefore), 1);
    assert.strictEqual(agentView()?.settingsToApply, undefined, 'nothing to apply yet');

    await setSettings({ 'switchboard.agents': { [AGENT]: { command: 'node', args: [fakeAgent, `--record=${afterRestart}`], env: { SWITCHBOARD_TEST_CHANGED: '1' } } } });
    await waitFor(() => agentView()?.settingsToApply?.join(',') === 'args,env', 'the chat to be told the args and env changed', 30_000);
    assert.strictEqual(agentView()?.status, 'ready', 'the agent was not restarted behind the user');
    await ctx.sb.backend.sessions.require(id).prompt(prompt('second, still the process started before'));
    assert.deepStrictEqual([prompts(recordBefore), prompts(afterRestart)], [2, 0]);

    // The banner's button.
    ctx.sb.chat.controller.handleMessage({ type: 'restartAgent', agentId: AGENT });
    await waitFor(() => agentView()?.status === 'ready' && agentView()?.settingsToApply === undefined, 'the restart to apply the settings', 60_000);
    await ctx.sb.backend.sessions.require(id).prompt(prompt('third, in the restarted agent'));
    assert.strictEqual(prompts(afterRestart), 1, 'the restarted agent runs with the new args');
  });

  it('a change that a start does not read (a default mode) asks for no restart', async () => {
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt('running'));
    const current = ctx.sb.configuration.find(AGENT);
    assert.ok(current);
    await setSettings({ 'switchboard.agents': { [AGENT]: { command: current.command, args: [...current.args], env: { ...current.env }, defaultMode: 'plan' } } });
    await waitFor(() => ctx.sb.configuration.find(AGENT)?.defaultMode === 'plan', 'the new setting read');
    assert.strictEqual(agentView()?.settingsToApply, undefined);
  });
});
