// The end of a turn through the real extension with the fake agent: the turn is idle the moment its end
// shows in the chat (the session owns "running"; the changed files and the checkpoint's end are recorded
// after, and what needs them waits for them), so "Restore checkpoint" right after the end is not refused.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { CheckpointView } from '../../../src/shared/checkpoints';
import { waitFor, workspaceRoot } from '../index';
import { prompt, transcriptOf, withFakeAgents } from './helpers';

const AGENT = 'Turn end agent (host test)';

describe('the end of a turn', function () {
  this.timeout(120_000);
  const ctx = withFakeAgents({ [AGENT]: [] });
  const viewOf = (id: string) => ctx.sb.backend.getSessions().find((s) => s.view.sessionId === id)?.view;

  afterEach(async () => {
    while (ctx.sb.diffReview.pendingTurns().length > 0) ctx.sb.diffReview.keepAll();
    for (const s of ctx.sb.backend.getSessions()) await ctx.sb.backend.closeSession(s.view.sessionId);
  });

  it('is idle when its end shows, and a restore asked for then is not refused', async () => {
    const dir = path.join(workspaceRoot(), 'turn-end', `${process.pid}-${Date.now()}`);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'written.txt');
    const id = await ctx.sb.backend.newSession(AGENT);
    // The first macrotask after the chat got the turn's end: what the user can click first.
    const atEnd = new Promise<{ turn: string | undefined; restore: Promise<CheckpointView> }>((resolve) => {
      const sub = ctx.sb.backend.onDidApplyOps((e) => {
        if (e.sessionId !== id || !e.ops.some((op) => op.op === 'append' && op.item.kind === 'turn_end')) return;
        sub.dispose();
        setTimeout(() => {
          const userMessage = transcriptOf(ctx.sb, id).items.find((i) => i.kind === 'user_message');
          resolve({ turn: viewOf(id)?.turn, restore: ctx.sb.backend.checkpoint(id, userMessage?.id ?? '', { kind: 'preview' }) });
        }, 0);
      });
    });
    const sent = ctx.sb.backend.sendPrompt(id, prompt(`write ${file} written in the turn`));
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
