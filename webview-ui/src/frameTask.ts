// The chat renders in a task of its own, started right after an animation frame, instead of inside the
// frame: a frame's task then holds the style, layout and paint of what the last render changed, and the
// render (Preact, Markdown) runs in the next task. On a slow machine one long task a frame becomes two
// shorter ones, at the price of one frame between a change and its paint. Still at most one render per
// frame, and none while the webview is hidden (no frames).

/** Calls `cb` in a task of its own after the next animation frame; returns the frame's id. */
export function afterNextFrame(cb: () => void): number {
  return requestAnimationFrame(() => {
    setTimeout(cb, 0);
  });
}
