// What the agent announced it can do, read in one place: the connection refuses a call the agent did not
// announce (CapabilityNotSupportedError) and the host offers only what the agent supports, both through
// OPTIONAL_METHODS. Capabilities are normalised to booleans when the `initialize` result is parsed.
import type { HistoryItem, SessionCapabilities } from '../../shared/chatState';
import { CapabilityNotSupportedError } from '../errors';
import type { AgentCapabilities } from '../schema/agentResponses';

interface MethodCapability {
  /** The capability's name in the protocol, for the error a refused call gets. */
  capability: string;
  supported(caps: AgentCapabilities): boolean;
}

/** Agent methods a client may call only when the agent announced their capability. */
export const OPTIONAL_METHODS = {
  logout: { capability: 'auth.logout', supported: (c) => c.auth.logout },
  'auth/status': { capability: 'auth.status', supported: (c) => c.auth.status },
  'session/load': { capability: 'loadSession', supported: (c) => c.loadSession },
  'session/resume': { capability: 'sessionCapabilities.resume', supported: (c) => c.sessionCapabilities.resume },
  'session/list': { capability: 'sessionCapabilities.list', supported: (c) => c.sessionCapabilities.list },
  'session/close': { capability: 'sessionCapabilities.close', supported: (c) => c.sessionCapabilities.close },
  'session/delete': { capability: 'sessionCapabilities.delete', supported: (c) => c.sessionCapabilities.delete },
  'session/fork': { capability: 'sessionCapabilities.fork', supported: (c) => c.sessionCapabilities.fork },
  'session/set_title': { capability: 'sessionCapabilities.title', supported: (c) => c.sessionCapabilities.title },
  'providers/list': { capability: 'providers', supported: (c) => c.providers },
  'providers/set': { capability: 'providers', supported: (c) => c.providers },
  'providers/disable': { capability: 'providers', supported: (c) => c.providers },
  '_session/steering': { capability: '_meta.steering', supported: (c) => c.steering },
} satisfies Record<string, MethodCapability>;

export type OptionalMethod = keyof typeof OPTIONAL_METHODS;

/** Whether an agent with these capabilities takes `method` (undefined: not initialized, so no). */
export function agentSupports(caps: AgentCapabilities | undefined, method: OptionalMethod): boolean {
  return caps !== undefined && OPTIONAL_METHODS[method].supported(caps);
}

/** Refuses a call the agent did not announce, before anything is sent. */
export function requireSupport(caps: AgentCapabilities, method: OptionalMethod): void {
  if (!agentSupports(caps, method)) throw new CapabilityNotSupportedError(OPTIONAL_METHODS[method].capability, method);
}

/** What the composer and the session's actions may offer in a session of this agent. */
export function composerCapabilities(caps: AgentCapabilities | undefined): SessionCapabilities {
  return {
    image: caps?.promptCapabilities.image ?? false,
    audio: caps?.promptCapabilities.audio ?? false,
    embeddedContext: caps?.promptCapabilities.embeddedContext ?? false,
    loadSession: agentSupports(caps, 'session/load'),
    fork: agentSupports(caps, 'session/fork'),
    title: agentSupports(caps, 'session/set_title'),
    steering: agentSupports(caps, '_session/steering'),
  };
}

/** What the history list may do with a session this agent listed (session/load, session/resume, session/delete). */
export function listedSessionActions(caps: AgentCapabilities | undefined): Pick<HistoryItem, 'canLoad' | 'canResume' | 'canDelete'> {
  return {
    canLoad: agentSupports(caps, 'session/load'),
    canResume: agentSupports(caps, 'session/resume'),
    canDelete: agentSupports(caps, 'session/delete'),
  };
}
