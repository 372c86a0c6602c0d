// Where the real agents from npm are (installed by scripts/install-real-agents.mjs) and how to start them
// without credentials. Plain Node, shared by the unit tier and the host tier (test/host/realAgents).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface RealAgentBin {
  /** Display name in messages. */
  readonly label: string;
  /** Env var that overrides the default location. */
  readonly envVar: 'SWITCHBOARD_CLAUDE_AGENT_ACP' | 'SWITCHBOARD_GEMINI_CLI';
  readonly pkg: string;
  /** The package's bin entry point, relative to the package folder. */
  readonly bin: string;
}

export const CLAUDE_AGENT_ACP: RealAgentBin = {
  label: 'Claude Agent (claude-agent-acp)',
  envVar: 'SWITCHBOARD_CLAUDE_AGENT_ACP',
  pkg: '@zed-industries/claude-agent-acp',
  bin: 'dist/index.js',
};

export const GEMINI_CLI: RealAgentBin = {
  label: 'Gemini CLI',
  envVar: 'SWITCHBOARD_GEMINI_CLI',
  pkg: '@google/gemini-cli',
  bin: 'bundle/gemini.js',
};

/** The cache the install script uses (keep in step with scripts/install-real-agents.mjs). */
export function realAgentsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SWITCHBOARD_REAL_AGENTS_DIR) return env.SWITCHBOARD_REAL_AGENTS_DIR;
  const hostDir = env.SWITCHBOARD_TEST_HOST_DIR || path.join(os.homedir(), '.cache', 'switchboard-test-host');
  return path.join(hostDir, 'real-agents');
}

/**
 * Absolute path of the agent's bin entry point (a Node script): the env var when set, else the default
 * cache. Throws (so the test FAILS, never skips) with what to run when it is not installed.
 */
export function realAgentBin(agent: RealAgentBin, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[agent.envVar];
  const file = fromEnv ? path.resolve(fromEnv) : path.join(realAgentsDir(env), 'node_modules', ...agent.pkg.split('/'), agent.bin);
  if (!fs.existsSync(file)) {
    throw new Error(
      `${agent.label} (${agent.pkg}) is not installed: ${file} does not exist` +
        (fromEnv ? ` (from ${agent.envVar})` : '') +
        '. Run `node scripts/install-real-agents.mjs` (CI runs it before `npm test`), ' +
        `or point ${agent.envVar} at the package's ${agent.bin}.`,
    );
  }
  return file;
}

/** Variables through which an agent could find real credentials (or change provider). */
export const CREDENTIAL_ENV = /^(ANTHROPIC|CLAUDE|GEMINI|GOOGLE|OPENAI|VERTEX|CLOUDSDK)_/i;

/** process.env minus anything credential-like: what the unit tier starts the agents with. */
export function credentialFreeEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) if (!CREDENTIAL_ENV.test(key)) env[key] = value;
  return env;
}

/**
 * Added to the agent's environment: an empty HOME (no ~/.claude.json, ~/.gemini), and IS_SANDBOX=1.
 * Why IS_SANDBOX: claude-agent-acp offers the bypassPermissions mode when not root OR IS_SANDBOX is
 * set to anything, but the Claude Code CLI it starts exits ("--dangerously-skip-permissions cannot be
 * used with root/sudo") unless it is exactly "1". Running as root with IS_SANDBOX=yes (as on the
 * project's machine) breaks session/new; "1" makes the agent behave the same for root and non-root.
 */
export function isolatedAgentEnv(home: string): Record<string, string> {
  return { HOME: home, USERPROFILE: home, IS_SANDBOX: '1' };
}

export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string | undefined): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
