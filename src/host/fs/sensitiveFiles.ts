/**
 * Sensitive files: configuration that changes what runs or what is allowed (editor and workspace settings,
 * git hooks, CI workflows, dev containers, the agents' own settings). A write to one always asks the user,
 * whatever auto-approval says. Pure (no `vscode`), so it is unit-tested in plain Node.
 *
 * A pattern is a glob over path segments (`*` and `?` within a segment, `**` any number of segments) and
 * matches any run of consecutive segments of the real path: `.vscode/**` matches `/w/app/.vscode/settings.json`
 * and a nested `/w/app/sub/.vscode/tasks.json`, `.git/**` a submodule's hooks too, `.kilo*` a file or a
 * folder (and so all below it) whose name starts with `.kilo`. Matching ignores letter
 * case on every system: a case-insensitive file system reaches `.VSCode/settings.json` through any spelling.
 */

export const DEFAULT_SENSITIVE_PATTERNS: readonly string[] = [
  '.vscode/**',
  '*.code-workspace',
  '.git/**',
  '.devcontainer/**',
  '.devcontainer.json',
  '.github/workflows/**',
  '.gitlab-ci.yml',
  '.claude/**',
  '.mcp.json',
  '.gemini/**',
  '.codex/**',
  '.qwen/**',
  '.opencode/**',
  'opencode.json',
  '.kilo*',
  '.cline*',
  '.factory/**',
];

const MAX_PATTERN_LENGTH = 500;
/** `**` backtracks: a pattern with more is refused rather than allowed to take seconds per write. */
const MAX_GLOBSTARS = 6;

function segmentRegex(segment: string): RegExp {
  const body = segment
    .split('')
    .map((ch) => (ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

type Compiled = Array<RegExp | '**'>;

function compile(pattern: string): Compiled | undefined {
  const segments = pattern
    .trim()
    .toLowerCase()
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.');
  const parts: Compiled = [];
  for (const s of segments) if (s !== '**' || parts[parts.length - 1] !== '**') parts.push(s === '**' ? '**' : segmentRegex(s));
  const globstars = parts.filter((p) => p === '**').length;
  if (parts.length === 0 || pattern.length > MAX_PATTERN_LENGTH || globstars > MAX_GLOBSTARS) return undefined;
  return parts;
}

/** True when the compiled pattern matches exactly the segments [from, to) of `segs`. */
function matchesRun(p: Compiled, pi: number, segs: readonly string[], si: number, end: number): boolean {
  if (pi === p.length) return si === end;
  const part = p[pi];
  if (part === '**') {
    for (let k = si; k <= end; k++) if (matchesRun(p, pi + 1, segs, k, end)) return true;
    return false;
  }
  return si < end && part.test(segs[si]) && matchesRun(p, pi + 1, segs, si + 1, end);
}

export class SensitivePatterns {
  private readonly compiled: Array<{ pattern: string; parts: Compiled }>;

  /** `extra`: the user's own patterns (`switchboard.sensitiveFiles`); entries that are not strings are skipped. */
  constructor(extra: readonly unknown[] = []) {
    const all = [...DEFAULT_SENSITIVE_PATTERNS, ...extra.filter((p): p is string => typeof p === 'string')];
    this.compiled = all.flatMap((pattern) => {
      const parts = compile(pattern);
      return parts ? [{ pattern, parts }] : [];
    });
  }

  /** The first pattern the path matches, or undefined. `path` should be the resolved real path. */
  match(path: string): string | undefined {
    const segs = path
      .toLowerCase()
      .split(/[\\/]+/)
      .filter((s) => s !== '');
    for (const { pattern, parts } of this.compiled) {
      for (let from = 0; from < segs.length; from++) {
        for (let to = from + 1; to <= segs.length; to++) {
          if (matchesRun(parts, 0, segs, from, to)) return pattern;
        }
      }
    }
    return undefined;
  }
}
