/**
 * Compares registry versions (semver-ish: optional "v", up to four numbers, pre-release after "-", build
 * after "+" ignored). Negative when `a` is older. A pre-release sorts before its release, as in semver.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < Math.max(pa.numbers.length, pb.numbers.length); i++) {
    const d = (pa.numbers[i] ?? 0) - (pb.numbers[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (!pa.pre.length || !pb.pre.length) return pa.pre.length ? -1 : pb.pre.length ? 1 : 0;
  for (let i = 0; i < Math.max(pa.pre.length, pb.pre.length); i++) {
    const x = pa.pre[i];
    const y = pb.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : undefined;
    const ny = /^\d+$/.test(y) ? Number(y) : undefined;
    if (nx !== undefined && ny !== undefined) {
      if (nx !== ny) return Math.sign(nx - ny);
    } else if (nx !== undefined || ny !== undefined) {
      return nx !== undefined ? -1 : 1;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

/** True when the registry offers a newer version than the one installed. */
export function isNewer(available: string, installed: string): boolean {
  return compareVersions(available, installed) > 0;
}

function parse(version: string): { numbers: number[]; pre: string[] } {
  const [core, ...rest] = version.trim().replace(/^v/i, '').split('+')[0].split('-');
  return { numbers: core.split('.').map((n) => Number(n) || 0), pre: rest.length ? rest.join('-').split('.') : [] };
}
