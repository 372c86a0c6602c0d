// Binding an open session again after the real Claude Agent restarted: the next prompt sends session/resume
// (Claude advertises sessionCapabilities.resume), nothing is replayed between that request and its answer
// (what crossed the wire, recorded by a tap around the agent), no session/load is sent, and the turn reaches
// the model with the earlier conversation.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AnthropicApi } from '../../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { repoRoot, setSettings } from '../index';
import { waitForAgentStatus } from '../integration/helpers';
import { REAL_TURN_TIMEOUT_MS, runTurn, withRealAgent } from './realAgentTurns';

interface Tapped {
  dir: 'in' | 'out';
  message: { id?: number | string; method?: string; params?: { sessionId?: string; update?: { sessionUpdate?: string } } };
}

function tapped(file: string): Tapped[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => {
      try {
        return [{ dir: (JSON.parse(l) as { dir: 'in' | 'out' }).dir, message: JSON.parse((JSON.parse(l) as { line: string }).line) as Tapped['message'] }];
      } catch {
        return [];
      }
    });
}

describe('real agent Claude Agent (real): rebinding with session/resume after a restart', function () {
  this.timeout(REAL_TURN_TIMEOUT_MS * 2);
  const ctx = withRealAgent(claudeRecipe, () => [new AnthropicApi()], { permissions: 'auto' });
  const tapLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-claude-tap-')), 'wire.jsonl');
  let restore: (() => Promise<void>) | undefined;

  before(async () => {
    // The agent as defined, run through the tap.
    const agents = vscode.workspace.getConfiguration('switchboard').inspect<Record<string, { command: string; args?: string[] }>>('agents')?.globalValue ?? {};
    const entry = agents[ctx.agent.name];
    assert.ok(entry, 'the real agent is defined');
    const tap = path.join(repoRoot, 'test', 'fixtures', 'agents', 'tap.mjs');
    restore = await setSettings({ 'switchboard.agents': { ...agents, [ctx.agent.name]: { ...entry, command: process.execPath, args: [tap, tapLog, entry.command, ...(entry.args ?? [])] } } });
  });
  after(async () => {
    await restore?.();
  });

  it('sends session/resume, receives no replay, and the turn keeps the conversation', async () => {
    const id = (ctx.sessionId = await ctx.sb.backend.lifecycle.open(ctx.agent.name));
    const first = await runTurn(ctx.sb, id, 'Remember the code word: periwinkle.', [{ text: 'Noted: periwinkle.' }], ctx.agent.endpoint);
    assert.strictEqual(first.error, undefined, `the first turn failed: ${first.error}`);

    await ctx.sb.backend.agents.restart(ctx.agent.name);
    await waitForAgentStatus(ctx.sb, ctx.agent.name, 'ready', 60_000);
    const afterRestart = tapped(tapLog).length;
    const second = await runTurn(ctx.sb, id, 'What was the code word?', [{ text: 'It was periwinkle.' }], ctx.agent.endpoint);
    assert.strictEqual(second.error, undefined, `the turn after the restart failed: ${second.error}`);

    const wire = tapped(tapLog).slice(afterRestart);
    const methods = wire.filter((t) => t.dir === 'in' && t.message.method).map((t) => t.message.method!);
    assert.ok(methods.includes('session/resume'), `sent after the restart: ${methods.join(', ')}`);
    assert.ok(!methods.includes('session/load') && !methods.includes('session/new'), `sent after the restart: ${methods.join(', ')}`);
    const resume = wire.findIndex((t) => t.dir === 'in' && t.message.method === 'session/resume');
    const resumeId = wire[resume].message.id;
    const answered = wire.findIndex((t, i) => i > resume && t.dir === 'out' && t.message.id === resumeId && !t.message.method);
    assert.ok(answered > resume, 'session/resume was answered');
    const replayed = wire.slice(resume, answered).filter((t) => t.dir === 'out' && t.message.method === 'session/update' && ['user_message_chunk', 'agent_message_chunk', 'tool_call'].includes(t.message.params?.update?.sessionUpdate ?? ''));
    assert.deepStrictEqual(replayed.map((t) => t.message.params?.update?.sessionUpdate), [], 'no replay between the resume and its answer');

    // The model got the earlier conversation: Claude resumed the session, not a new one.
    const last = ctx.agent.endpoint.mainRequests().at(-1);
    assert.ok(last && JSON.stringify(last.body).includes('periwinkle'), 'the last request carries the earlier conversation');
  });
});
