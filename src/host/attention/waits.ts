// What a session waits for the user for, read from the changes of its view: a turn that ended or failed, a
// permission request, an elicitation; and an agent that waits for sign-in. Pure: no `vscode`.
import type { BackendSessionView } from '../../chat/chatBackend';
import type { AgentView } from '../../shared/chatState';

export type WaitKind = 'ended' | 'failed' | 'permission' | 'elicitation' | 'signIn';

export interface Wait {
  /** What it waits on: a session key, or `agent:<id>` for a sign-in. */
  key: string;
  kind: WaitKind;
  /** One wait has one identity: the same identity again is the same wait (no second notification). */
  identity: string;
  agentName: string;
  /** The session's title (absent for a sign-in). */
  sessionTitle?: string;
  sessionId?: string;
  /** The permission request to show (kind `permission`). */
  requestId?: string;
  /** For `ended`: the stop reason; for `failed`: the error. */
  detail?: string;
}

export const agentKey = (agentId: string): string => `agent:${agentId}`;

/**
 * The wait the session's new view starts, `null` when what it waited for is over (a new turn began, the
 * request was answered), `undefined` when nothing changed for the user. `turnEnds` counts the session's
 * ended turns so that each end is a wait of its own.
 */
export function sessionWait(
  prev: BackendSessionView | undefined,
  next: BackendSessionView,
  o: { agentName: string; stopReason: string | undefined; turnEnds: number },
): Wait | null | undefined {
  const base = { key: next.sessionId, sessionId: next.sessionId, agentName: o.agentName, sessionTitle: next.title ?? 'New session' };
  const permission = next.permissions[0];
  if (permission) return { ...base, kind: 'permission', identity: `permission:${permission.requestId}`, requestId: permission.requestId, detail: permission.title };
  const elicitation = next.elicitations[0];
  if (elicitation) return { ...base, kind: 'elicitation', identity: `elicitation:${elicitation.requestId}`, detail: elicitation.message };
  const wasRunning = prev !== undefined && prev.turn !== 'idle';
  if (wasRunning && next.turn === 'idle') {
    if (next.error) return { ...base, kind: 'failed', identity: `failed:${o.turnEnds}`, detail: next.error.message };
    return { ...base, kind: 'ended', identity: `ended:${o.turnEnds}`, detail: o.stopReason ?? 'end_turn' };
  }
  // A turn started, or the request that was pending is answered: the user needs nothing from it now.
  if (next.turn !== 'idle' && (prev === undefined || prev.turn === 'idle')) return null;
  if (prev && (prev.permissions.length > 0 || prev.elicitations.length > 0)) return null;
  return undefined;
}

/** A sign-in wait when the agent starts to need one, `null` when it no longer does. */
export function signInWait(prev: AgentView | undefined, next: AgentView): Wait | null | undefined {
  const was = prev?.status === 'auth_required';
  const is = next.status === 'auth_required';
  if (is && !was) return { key: agentKey(next.id), kind: 'signIn', identity: `signIn:${next.id}`, agentName: next.name };
  if (was && !is) return null;
  return undefined;
}

const STOP_REASONS: Record<string, string> = {
  end_turn: 'finished',
  max_tokens: 'stopped: it reached its token limit',
  max_turn_requests: 'stopped: it reached its request limit for a turn',
  refusal: 'refused to continue',
  cancelled: 'was stopped',
};

/** The notification's words: the agent, what it waits for, the session. */
export function waitMessage(w: Wait): string {
  const where = w.sessionTitle !== undefined ? ` in “${w.sessionTitle}”` : '';
  switch (w.kind) {
    case 'ended':
      return `${w.agentName} ${STOP_REASONS[w.detail ?? 'end_turn'] ?? `stopped (${w.detail})`}${where}.`;
    case 'failed':
      return `${w.agentName}'s turn failed${where}: ${w.detail ?? 'unknown error'}`;
    case 'permission':
      return `${w.agentName} asks for your permission${where}: ${w.detail ?? 'run a tool'}`;
    case 'elicitation':
      return `${w.agentName} asks you a question${where}: ${w.detail ?? ''}`;
    case 'signIn':
      return `${w.agentName} needs you to sign in.`;
  }
}
