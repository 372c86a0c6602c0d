// The end of a turn through the real extension with the fake agent: the turn is idle the moment its end
// shows in the chat (the session owns "running"; the changed files and the checkpoint's end are recorded
// after, and what needs them waits for them), so "Restore checkpoint" right after the end is not refused;
// the demo agent's whole tour (an edit through fs/write_text_file behind a permission, a terminal command)
// is idle the moment its end shows too.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { CheckpointView } from '../../../src/shared/checkpoints';
import { repoRoot, setSettings, waitFor, workspaceRoot } from '../index';
import { prompt, stopAgent, transcriptOf, withFakeAgents } from './helpers';

const AGENT = 'Turn end agent (host test)';
const DEMO = 'Turn end demo agent (host test)';

describe('the end of a turn', function () {
  this.timeout(120_000);
  const ctx = withFakeAgents({ [AGENT]: [] });
  const viewOf = (id: string) => ctx.sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view;

  afterEach(async () => {
    while (ctx.sb.diffReview.pendingTurns().length > 0) ctx.sb.diffReview.keepAll();
    for (const s of ctx.sb.backend.sessions.snapshots()) await ctx.sb.backend.lifecycle.close(s.view.sessionId);
  });

  /** The session's turn state in the first macrotask after the chat got the turn's end. */
  function turnAtEnd(id: string): Promise<string | undefined> {
    return new Promise((resolve) => {
      const sub = ctx.sb.backend.sessions.onDidApplyOps((e) => {
        if (e.tabId !== id || !e.ops.some((op) => op.op === 'append' && op.item.kind === 'turn_end')) return;
        sub.dispose();
        setTimeout(() => resolve(viewOf(id)?.turn), 0);
      });
    });
  }

  it("the demo agent's tour (an edit allowed, a command run) is idle when its end shows", async () => {
    const greet = path.join(workspaceRoot(), 'src', 'greet.js');
    const original = fs.readFileSync(greet);
    const restore = await setSettings({
      'switchboard.agents': { [AGENT]: { command: 'node', args: [path.join(repoRoot, 'test', 'fixtures', 'agents', 'fake-agent.mjs')] }, [DEMO]: { command: 'node', args: [path.join(repoRoot, 'test', 'fixtures', 'agents', 'demo-agent.mjs')] } },
    });
    try {
      await waitFor(() => ctx.sb.backend.agents.views().some((a) => a.id === DEMO), 'the demo agent listed');
      const id = await ctx.sb.backend.lifecycle.open(DEMO);
      const atEnd = turnAtEnd(id);
      const sent = ctx.sb.backend.sessions.require(id).prompt(prompt('hello, the whole tour'));
      const requestId = await waitFor(() => viewOf(id)?.permissions[0]?.requestId, 'the edit to ask for permission', 60_000);
      const allow = viewOf(id)?.permissions[0]?.options.find((o) => o.kind.startsWith('allow'))?.optionId;
      assert.ok(allow, 'an allow option');
      ctx.sb.chat.controller.handleMessage({ type: 'permissionAnswer', sessionId: id, requestId, answer: { optionId: allow } });
      assert.strictEqual(await atEnd, 'idle', 'the tour is idle once its end shows');
      await sent;
      const items = transcriptOf(ctx.sb, id).items;
      assert.ok(items.some((i) => i.kind === 'turn_end' && i.stopReason === 'end_turn'), 'the tour ended normally');
      assert.ok(!items.some((i) => i.kind === 'tool_call' && (i.status === 'in_progress' || i.status === 'pending')), 'no tool call shows running');
    } finally {
      await stopAgent(ctx.sb, DEMO);
      fs.writeFileSync(greet, original);
      await restore();
    }
  });

  it('is idle when its end shows, and a restore asked for then is not refused', async () => {
    const dir = path.join(workspaceRoot(), 'turn-end', `${process.pid}-${Date.now()}`);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'written.txt');
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    // The first macrotask after the chat got the turn's end: what the user can click first.
    const atEnd = new Promise<{ turn: string | undefined; restore: Promise<CheckpointView> }>((resolve) => {
      const sub = ctx.sb.backend.sessions.onDidApplyOps((e) => {
        if (e.tabId !== id || !e.ops.some((op) => op.op === 'append' && op.item.kind === 'turn_end')) return;
        sub.dispose();
        setTimeout(() => {
          const userMessage = transcriptOf(ctx.sb, id).items.find((i) => i.kind === 'user_message');
          resolve({ turn: viewOf(id)?.turn, restore: ctx.sb.backend.checkpoints.act(id, userMessage?.id ?? '', { kind: 'preview' }) });
        }, 0);
      });
    });
    const sent = ctx.sb.backend.sessions.require(id).prompt(prompt(`write ${file} written in the turn`));
    const { turn, restore } = await atEnd;
    assert.strictEqual(turn, 'idle', 'the turn is idle once its end shows');
    const view = await restore;
    assert.strictEqual(view.phase, 'preview', `not refused: ${JSON.stringify(view)}`);
    // It waited for the turn's changed files: the file the turn wrote is in it.
    assert.deepStrictEqual(view.phase === 'preview' ? view.files.filter((f) => f.path === file).map((f) => f.action) : [], ['delete']);
    await sent;
    await waitFor(() => ctx.sb.diffReview.pendingTurns().length > 0, 'the turn listed in the changed files');
  });
});
