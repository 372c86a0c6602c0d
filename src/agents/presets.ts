import type { AgentDefinition } from './agentDefinition';

/**
 * A built-in agent the picker offers without any settings. The command lines are the ones each
 * package documents (checked against the npm registry, see the comment on each entry).
 */
export interface AgentPreset extends AgentDefinition {
  /** The npm package that provides the agent (for messages and the "install" action). */
  readonly npmPackage: string;
  /** Human-readable install instructions shown when the command is not found. */
  readonly installHint: string;
  readonly docsUrl: string;
}

/*
 * Verified with `npm view <pkg>` and the packages' READMEs / CLI option tables:
 * - @agentclientprotocol/claude-agent-acp 0.101.0: bin `claude-agent-acp`; README documents `npx` and
 *   `npm install -g`. npx -y avoids a prompt on first run (no TTY for the agent). The older
 *   @zed-industries name is frozen at 0.23.1.
 * - @google/gemini-cli 0.61.0: bin `gemini`; yargs options list `--acp` ("Starts the agent in ACP
 *   mode") and `--experimental-acp` ("deprecated, use --acp instead").
 * - @zed-industries/codex-acp 0.16.0: bin `codex-acp`; README documents `npx @zed-industries/codex-acp`.
 * - @qwen-code/qwen-code 0.24.4: bin `qwen`; `--acp`, with `--experimental-acp` hidden and deprecated.
 * - opencode-ai 1.18.33: bin `opencode`; opencode.ai/docs/acp documents `opencode acp`.
 * - @github/copilot 1.0.102: bin `copilot`; `copilot --acp` starts GitHub Copilot's agent in ACP mode.
 * test/unit/agents/presets.test.ts checks each command line against the pinned package's own `bin`.
 *
 * Gemini CLI and Qwen Code start by running themselves again in a second Node process with a larger heap
 * (half the machine's memory); their own `*_NO_RELAUNCH` variable makes the first process the agent.
 * Measured on the pinned versions (bench/RESULTS.md, medians of 5): `initialize` answered 1.0 s (Gemini) and
 * 1.2 s (Qwen) sooner, with 1.1 / 1.5 CPU-s less per start and one Node process fewer while the agent runs;
 * Node's default heap is ample for an ACP session.
 */
const PRESETS: AgentPreset[] = [
  {
    name: 'Claude Agent',
    command: 'npx',
    args: ['-y', '@agentclientprotocol/claude-agent-acp'],
    env: {},
    npmPackage: '@agentclientprotocol/claude-agent-acp',
    installHint:
      'Claude Agent runs through npx, which comes with Node.js (https://nodejs.org). To install it instead: npm install -g @agentclientprotocol/claude-agent-acp, then use the command "claude-agent-acp".',
    docsUrl: 'https://github.com/agentclientprotocol/claude-agent-acp#readme',
  },
  {
    name: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp'],
    env: { GEMINI_CLI_NO_RELAUNCH: 'true' },
    npmPackage: '@google/gemini-cli',
    installHint: 'Install Gemini CLI with: npm install -g @google/gemini-cli',
    docsUrl: 'https://github.com/google-gemini/gemini-cli#readme',
  },
  {
    name: 'Codex',
    command: 'npx',
    args: ['-y', '@zed-industries/codex-acp'],
    env: {},
    npmPackage: '@zed-industries/codex-acp',
    installHint:
      'Codex runs through npx, which comes with Node.js (https://nodejs.org). Prebuilt codex-acp binaries: https://github.com/zed-industries/codex-acp/releases',
    docsUrl: 'https://github.com/zed-industries/codex-acp',
  },
  {
    name: 'Qwen Code',
    command: 'qwen',
    args: ['--acp'],
    env: { QWEN_CODE_NO_RELAUNCH: 'true' },
    npmPackage: '@qwen-code/qwen-code',
    installHint: 'Install Qwen Code with: npm install -g @qwen-code/qwen-code@latest',
    docsUrl: 'https://github.com/QwenLM/qwen-code#readme',
  },
  {
    name: 'OpenCode',
    command: 'opencode',
    args: ['acp'],
    env: {},
    npmPackage: 'opencode-ai',
    installHint: 'Install OpenCode with: npm install -g opencode-ai (see https://opencode.ai/docs)',
    docsUrl: 'https://opencode.ai/docs/acp/',
  },
  {
    name: 'GitHub Copilot',
    command: 'copilot',
    args: ['--acp'],
    env: {},
    npmPackage: '@github/copilot',
    installHint: 'Install GitHub Copilot CLI with: npm install -g @github/copilot, then sign in with "copilot" once (it needs a Copilot subscription).',
    docsUrl: 'https://docs.github.com/copilot/how-tos/use-copilot-agents/use-copilot-cli',
  },
];

export const BUILTIN_PRESETS: readonly AgentPreset[] = Object.freeze(
  PRESETS.map((preset) => Object.freeze({ ...preset, args: Object.freeze([...preset.args]), env: Object.freeze({ ...preset.env }) })),
);
