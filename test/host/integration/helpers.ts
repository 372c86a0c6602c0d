// Shared by the integration host tests: the extension's API and agents defined on the fake agent.
import * as path from 'path';
import type { SwitchboardApi, SwitchboardExports } from '../../../src/extension';
import type { Transcript, TranscriptItem } from '../../../src/shared/transcript';
import { repoRoot, setSettings, switchboardExtension, waitFor } from '../index';

export const fakeAgent = path.join(repoRoot, 'test', 'fixtures', 'agents', 'fake-agent.mjs');

export async function api(): Promise<SwitchboardApi> {
  return ((await switchboardExtension().activate()) as SwitchboardExports).services();
}

/** Defines agents that run the fake agent with the given flags; returns a restore function. */
export function useFakeAgents(agents: Record<string, string[]>): Promise<() => Promise<void>> {
  const value: Record<string, unknown> = {};
  for (const [name, flags] of Object.entries(agents)) value[name] = { command: 'node', args: [fakeAgent, ...flags] };
  return setSettings({ 'switchboard.agents': value });
}

/**
 * For a describe block: before its tests the fake agents are defined (and listed), after them every open
 * session is closed, the agents are stopped and the settings are restored. `sb` is set once `before` has run.
 */
export function withFakeAgents(agents: Record<string, string[]>): { sb: SwitchboardApi } {
  const context = {} as { sb: SwitchboardApi };
  let restore: (() => Promise<void>) | undefined;
  before(async () => {
    context.sb = await api();
    restore = await useFakeAgents(agents);
    await waitFor(() => Object.keys(agents).every((name) => context.sb.backend.agents.views().some((a) => a.id === name)), 'the fake agents');
  });
  after(async () => {
    for (const s of context.sb.backend.sessions.snapshots()) await context.sb.backend.lifecycle.close(s.view.sessionId);
    for (const name of Object.keys(agents)) await stopAgent(context.sb, name);
    await restore?.();
  });
  return context;
}

/**
 * Closes the agent's sessions and stops its process the way the extension does (stdin EOF, then the whole
 * tree), so nothing a test file started outlives it (a restart would start the agent again).
 */
export async function stopAgent(sb: SwitchboardApi, agentId: string): Promise<void> {
  for (const s of sb.backend.sessions.snapshots()) if (s.view.agentId === agentId) await sb.backend.lifecycle.close(s.view.sessionId);
  await sb.backend.agents.running(agentId)?.stop();
}

export function transcriptOf(sb: SwitchboardApi, sessionId: string): Transcript {
  const snapshot = sb.backend.sessions.snapshots().find((s) => s.view.sessionId === sessionId);
  if (!snapshot) throw new Error(`no session ${sessionId}`);
  return snapshot.transcript;
}

export function textOf(item: TranscriptItem): string {
  if (item.kind !== 'agent_message' && item.kind !== 'user_message' && item.kind !== 'thought') return '';
  return item.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

export async function waitForAgentStatus(sb: SwitchboardApi, agent: string, status: string, timeoutMs = 15_000): Promise<void> {
  await waitFor(() => sb.backend.agents.views().find((a) => a.id === agent)?.status === status, `${agent} to be ${status}`, timeoutMs);
}

export function prompt(text: string) {
  return { text, mentions: [], images: [] };
}
