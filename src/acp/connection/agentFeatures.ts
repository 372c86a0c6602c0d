// What the chat may offer, derived from the agent's capabilities (normalised to booleans when the
// `initialize` result is parsed) in one place, so the UI never offers what the connection would refuse.
import type { HistoryItem, SessionCapabilities } from '../../shared/chatState';
import type { AgentCapabilities } from '../schema/agentResponses';

/** What the composer may attach in a session of this agent (undefined: not initialized, nothing extra). */
export function composerCapabilities(caps: AgentCapabilities | undefined): SessionCapabilities {
  return {
    image: caps?.promptCapabilities.image ?? false,
    audio: caps?.promptCapabilities.audio ?? false,
    embeddedContext: caps?.promptCapabilities.embeddedContext ?? false,
    loadSession: caps?.loadSession ?? false,
  };
}

/** What the history list may do with a session this agent listed (session/load, session/resume, session/delete). */
export function listedSessionActions(caps: AgentCapabilities | undefined): Pick<HistoryItem, 'canLoad' | 'canResume' | 'canDelete'> {
  return {
    canLoad: caps?.loadSession ?? false,
    canResume: caps?.sessionCapabilities.resume ?? false,
    canDelete: caps?.sessionCapabilities.delete ?? false,
  };
}
