// The whole turn each real agent does in the e2e chat (realAgents.test.ts): what a case says about the agent,
// the file the turn edits (before and after), and the turn typed in the chat and checked as it shows.
import * as assert from 'assert';
import * as fs from 'fs';
import type { FrameLocator } from 'playwright-core';
import type { ApiHandler, Step } from '../../fixtures/modelEndpoint/endpoint';
import type { RealAgentRecipe } from '../../fixtures/realAgents/recipe';
import { sendMessage, transcript, turnsEnded, until, workspaceFile } from './chat';
import { allowUntilTurnEnds, protocolTrace, toolCallOutputSent, toolCallTitles, type E2ERealAgent } from './realAgents';
import { openSessionWith } from './sessionTabs';

export interface AgentCase {
  readonly recipe: RealAgentRecipe;
  readonly handlers: () => readonly ApiHandler[];
  /** The agent's own bug: its shell output never reaches any client (Gemini CLI 0.61). */
  readonly noShellOutput?: string;
  /** Only the whole turn and its changed files here (CI time): the host tier runs Stop and a second turn. */
  readonly lean?: boolean;
  /**
   * Stop from the chat's button, then a second message (one agent: the button and the turn end it shows are
   * the chat's; every agent's own cancel and next turn are checked in the host tier, wholeTurns.test.ts).
   */
  readonly stopInChat?: boolean;
  /**
   * The agent writes with a tool that names no file and sends no diff (Cline's apply_patch): its card has no
   * "Open diff"; the changed-files list still catches the write (the turn's baseline on disk).
   */
  readonly unnamedWrites?: string;
}

export const ORIGINAL = `'use strict';\n\n/** The greeting. */\nfunction greeting() {\n  return 'hello';\n}\n\nmodule.exports = { greeting };\n`;
const EDITED = ORIGINAL.replace("'hello'", "'hello, world'");

/**
 * A whole turn of the agent typed in the chat, in a session of its own: streamed text, a card per tool
 * call, the edit allowed, the shell output, the end of the turn.
 */
export async function wholeTurnInChat(chat: FrameLocator, agent: E2ERealAgent, c: AgentCase): Promise<void> {
  const id = c.recipe.id;
  const name = c.recipe.label;
  const rel = `src/${id}-e2e.js`;
  const marker = `shell-ran-${id}`;
  const file = workspaceFile(rel);
  await openSessionWith(chat, name);
  const log = transcript(chat);
  const steps: Step[] = [
    { text: 'Let me look at the file first.', tools: [{ read: { path: file } }] },
    { text: 'Now the edit.', tools: [{ edit: { path: file, oldText: "  return 'hello';\n", newText: "  return 'hello, world';\n" } }] },
    { text: 'Checking it with a command.', tools: [{ shell: { command: `echo ${marker} && wc -l ${rel} | tee /dev/null` } }] },
    { text: 'All done: the greeting now says hello, world.' },
  ];
  agent.endpoint.script(steps);
  const before = await turnsEnded(chat);
  await sendMessage(chat, `Make the greeting in ${rel} say hello, world, then check the file.`);
  const perms = await allowUntilTurnEnds(chat, before);
  console.log(`    ${name} asked: ${JSON.stringify(perms)}`);
  assert.ok(perms.length >= 1, 'the agent asked before editing');
  assert.strictEqual(agent.endpoint.remaining, 0, `every scripted step was taken:\n${agent.endpoint.describeLog()}`);

  const end = transcript(chat).locator('.item[data-kind="turn_end"]').last().locator('.turn-end');
  assert.doesNotMatch((await end.getAttribute('class')) ?? '', /reason-(cancelled|refusal|max)/);
  assert.strictEqual(await chat.locator('.session .banner-error').count(), 0, 'no error banner');

  // The streamed text, all of it.
  for (const text of ['Let me look at the file first.', 'Now the edit.', 'Checking it with a command.', 'All done: the greeting now says hello, world.']) {
    await log.getByRole('article', { name: 'Agent' }).filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
  }
  // Every tool call the agent sent (its last title for each, from the protocol trace) is a group
  // named by that title.
  const sent = (await until(() => {
    const trace = protocolTrace(name);
    return trace.some((m) => m.type === 'response' && m.method === 'session/prompt') ? toolCallTitles(trace) : undefined;
  }, `the turn in ${name}'s protocol trace`, 30_000))!;
  console.log(`    ${name} tool calls: ${JSON.stringify(sent)}`);
  assert.ok(sent.length >= 3, `a tool call per step: ${JSON.stringify(sent)}`);
  for (const title of sent) {
    assert.ok(title.trim().length > 0, 'every tool call has a title');
    await log.getByRole('group', { name: title.replace(/\s+/g, ' ').trim(), exact: true }).first().waitFor({ timeout: 10_000 });
  }
  // The edit's card carries its diff; the file on disk has the edit.
  if (!c.unnamedWrites) await log.locator('.tool-call').filter({ has: chat.getByRole('button', { name: 'Open diff', exact: true }) }).first().waitFor({ timeout: 10_000 });
  await until(() => fs.readFileSync(file, 'utf8') === EDITED, `${rel} on disk to carry the edit`, 30_000);
  // The shell command's output (the marker on a line of its own, not the command line) is readable.
  const shellCard = log.locator('.tool-call').filter({ hasText: `echo ${marker}` }).first();
  // What a command printed is the agent's own capture (Codex now and then reports it empty,
  // openai/codex#28207; Qwen drops a line under load): when the agent ran it itself, the card must show
  // the marker only if the agent sent it (the protocol trace says); a terminal of the client's always.
  const trace = protocolTrace(name);
  const clientTerminal = trace.some((m) => m.method === 'terminal/create');
  const lost = !clientTerminal && !toolCallOutputSent(trace, `echo ${marker}`).includes(marker);
  if (lost) {
    console.log(`    ${name} sent no output with "${marker}" for the shell command this time`);
  } else if (!c.noShellOutput) {
    await shellCard.waitFor({ timeout: 10_000 });
    const output = shellCard.locator('pre.terminal-output');
    await until(async () => new RegExp(`(^|\\n)${marker}(\\n|$)`).test((await output.allInnerTexts()).join('\n')), `"${marker}" in the shell card's output`, 30_000);
  }
  // The turn is over: no card of it shows running, whether or not the agent reported each call's end
  // (Codex does not always: the chat then says "No result").
  await until(async () => (await log.locator('.tool-status .codicon-modifier-spin').count()) === 0, 'no tool call shown running after the turn', 10_000);
}
