// The chat renders in a task of its own after an animation frame (frameTask.ts), not inside the frame's
// task, and at most once a frame.
import './setupDom';
import * as assert from 'node:assert/strict';
import { afterNextFrame } from '../../../webview-ui/src/frameTask';
import { ChatStore } from '../../../webview-ui/src/store';

type Frames = { requestAnimationFrame: typeof requestAnimationFrame };

/** Runs `body` with requestAnimationFrame wrapped so `inFrame()` says whether a frame callback is running. */
async function withFrameProbe(body: (inFrame: () => boolean, frames: () => number) => Promise<void>): Promise<void> {
  const g = globalThis as unknown as Frames;
  const real = g.requestAnimationFrame;
  let depth = 0;
  let count = 0;
  g.requestAnimationFrame = (cb) =>
    real((t) => {
      depth++;
      count++;
      try {
        cb(t);
      } finally {
        depth--;
      }
    });
  try {
    await body(() => depth > 0, () => count);
  } finally {
    g.requestAnimationFrame = real;
  }
}

describe('webview: renders run in a task after the animation frame', () => {
  it('afterNextFrame calls back after the frame, outside its callback', async () => {
    await withFrameProbe(async (inFrame, frames) => {
      const seen = await new Promise<{ inFrame: boolean; frames: number }>((resolve) => afterNextFrame(() => resolve({ inFrame: inFrame(), frames: frames() })));
      assert.equal(seen.frames, 1, 'a frame came first');
      assert.equal(seen.inFrame, false, 'not inside the frame callback');
    });
  });

  it('the store notifies once for all the changes of a frame, after the frame', async () => {
    await withFrameProbe(async (inFrame) => {
      const store = new ChatStore({ postMessage: () => undefined, getState: () => undefined, setState: () => undefined });
      const calls: boolean[] = [];
      const done = new Promise<void>((resolve) =>
        store.subscribe(() => {
          calls.push(inFrame());
          resolve();
        }),
      );
      for (let i = 0; i < 5; i++) store.changed();
      assert.equal(store.framePending, true);
      await done;
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(calls, [false], 'one notification, outside the frame callback');
      assert.equal(store.framePending, false);
    });
  });
});
