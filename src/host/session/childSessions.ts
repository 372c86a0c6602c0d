// Child sessions (subagents) in the session layer: a child's updates go into the nest of the session the
// client opened (the route comes from the connection's map, acp/connection/subagentRoutes.ts), its requests
// are answered in that session's context (its folders, turn, changed files and permission cards), and the
// session cancels its children when it closes.
import type * as vscode from 'vscode';
import type { AcpClientConnection, SessionNotification, SessionRoute } from '../../acp';
import { scopedSessionId, type Session } from './session';
import type { SessionRegistry } from './tabs/sessionRegistry';

/** Delivers an agent's session/update to the session it belongs to, nested when it is a child's. */
export function deliverUpdate(sessions: SessionRegistry, agentName: string, notification: SessionNotification, log: vscode.LogOutputChannel): void {
  const { sessionId, update, route } = notification;
  const own = sessions.scoped(scopedSessionId(agentName, sessionId));
  if (own) return own.receive(update);
  if (route?.kind === 'child') {
    const root = sessions.scoped(scopedSessionId(agentName, route.root));
    if (root) return root.receiveNested(route.path, update);
  }
  const host = route?.kind === 'unknown' ? strangerHost(sessions, agentName) : undefined;
  // Never announced: kept, under "Unknown subagent" in the session the agent is most likely working for.
  if (host) return host.receiveNested([sessionId], update);
  log.debug(`session/update for unknown session ${sessionId}`);
}

/**
 * Where a stranger's (a child no one announced) updates and permission requests go: the agent's session
 * whose turn runs, else the active one, else its latest.
 */
export function strangerHost(sessions: SessionRegistry, agentName: string): Session | undefined {
  const mine = sessions.ofAgent(agentName);
  const active = sessions.active;
  return mine.find((s) => s.turn !== 'idle') ?? (active?.agentId === agentName ? active : mine.at(-1));
}

/** The open session whose context answers a request: the child's root for a child's request. */
export function requestOwner(route: SessionRoute | undefined, agentName: string, sessionId: string): string {
  return scopedSessionId(agentName, route?.kind === 'child' ? route.root : sessionId);
}

function working(session: Session, childId: string): boolean {
  const state = session.subagent(childId)?.state?.state;
  return state === 'running' || state === 'requires_action';
}

/** The session closes: its children still working are cancelled (where the agent lets them be). */
export async function cancelChildrenOf(session: Session, connection: AcpClientConnection): Promise<void> {
  const children = connection.subagentsOf(session.acpSessionId).filter((id) => session.subagent(id)?.cancellable && working(session, id));
  await Promise.all(children.map((id) => connection.cancel(id)));
}
