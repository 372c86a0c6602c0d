// Statistics the benches and the host bench share: one median for every report.

/** The middle value of the finite numbers in `xs` (the upper one of an even count); NaN when there are none. */
export function median(xs: readonly number[]): number {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : NaN;
}
