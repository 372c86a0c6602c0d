import * as assert from 'assert';
import { DEFAULT_SENSITIVE_PATTERNS, SensitivePatterns } from '../../../src/host/fs/sensitiveFiles';

describe('host: sensitive file patterns', () => {
  const defaults = new SensitivePatterns();

  it('the issue\'s list is sensitive, wherever the folder is', () => {
    for (const p of [
      '/w/app/.vscode/settings.json',
      '/w/app/.vscode/tasks.json',
      '/w/app/sub/.vscode/launch.json',
      '/w/app/my.code-workspace',
      '/w/app/.git/hooks/pre-commit',
      '/w/app/.git/config',
      '/w/app/vendor/lib/.git/hooks/post-checkout',
      '/w/app/.devcontainer/devcontainer.json',
      '/w/app/.github/workflows/ci.yml',
      '/w/app/.gitlab-ci.yml',
      '/w/app/.claude/settings.json',
      '/w/app/.mcp.json',
      '/w/app/opencode.json',
      '/w/app/.devcontainer.json',
      '/home/u/.claude/settings.local.json',
      '/w/app/.gemini/settings.json',
      '/w/app/.codex/config.toml',
      '/w/app/.qwen/settings.json',
      '/w/app/.opencode/agent/x.md',
      '/w/app/.kilocode/rules/a.md',
      '/w/app/.kilocodemodes',
      '/w/app/.clinerules',
      '/w/app/.clinerules/x.md',
      '/w/app/.factory/droids/x.md',
    ]) {
      assert.ok(defaults.match(p), `${p} is sensitive`);
    }
  });

  it('ordinary files, instruction files and look-alikes stay ordinary', () => {
    for (const p of [
      '/w/app/AGENTS.md',
      '/w/app/CLAUDE.md',
      '/w/app/GEMINI.md',
      '/w/app/src/index.ts',
      '/w/app/.github/ISSUE_TEMPLATE/bug.md',
      '/w/app/.gitignore',
      '/w/app/.github/CODEOWNERS',
      '/w/app/docs/vscode/settings.json',
      '/w/app/x.git/config',
      '/w/app/.vscodeignore',
    ]) {
      assert.strictEqual(defaults.match(p), undefined, `${p} is ordinary`);
    }
  });

  it('any letter case, Windows separators and drive letters', () => {
    assert.strictEqual(defaults.match('/w/app/.VSCode/Settings.JSON'), '.vscode/**');
    assert.strictEqual(defaults.match('C:\\Work\\App\\.GIT\\hooks\\pre-commit'), '.git/**');
    assert.strictEqual(defaults.match('/w/app/.GitHub/Workflows/release.YML'), '.github/workflows/**');
    assert.strictEqual(defaults.match('/w/app/Team.Code-Workspace'), '*.code-workspace');
  });

  it('the user\'s patterns add to the defaults; bad entries are skipped, never removing a default', () => {
    const p = new SensitivePatterns(['scripts/deploy/**', 'Makefile', 42, null, '', '   ', '**/a/**/b/**/c/**/d/**/e/**/f/**']);
    assert.strictEqual(p.match('/w/app/scripts/deploy/run.sh'), 'scripts/deploy/**');
    assert.strictEqual(p.match('/w/app/Makefile'), 'Makefile');
    assert.strictEqual(p.match('/w/app/scripts/build.sh'), undefined);
    assert.strictEqual(p.match('/w/app/a/b/c/d/e/f/g'), undefined, 'a pattern with too many ** is refused');
    assert.strictEqual(p.match('/w/app/.vscode/settings.json'), '.vscode/**');
    assert.ok(DEFAULT_SENSITIVE_PATTERNS.includes('.vscode/**'));
  });

  it('a long path and many globstars stay fast', () => {
    const p = new SensitivePatterns(['**/a/**/b/**/c/**/d/**/e/**']);
    const long = '/' + Array.from({ length: 60 }, (_, i) => `seg${i}`).join('/') + '/file.txt';
    const started = process.hrtime.bigint();
    assert.strictEqual(p.match(long), undefined);
    // Not a speed assertion: the match must simply finish (a backtracking blow-up would hang the test).
    assert.ok(process.hrtime.bigint() > started);
  });
});
