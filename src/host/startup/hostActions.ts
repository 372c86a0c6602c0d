// The chat's HostActions: the objects behind switchboard.showProtocolLog, switchboard.addAgentFromRegistry
// and the chips' mention opener, called directly (the chat never runs our own commands).
import type { HostActions } from '../../chat/chatBackend';
import type { MentionOpener } from '../context/mentionOpener';
import type { ProtocolLog } from '../log/protocolLog';
import type { RegistryUi } from '../registry/registryUi';

export interface HostActionSources {
  protocolLog: ProtocolLog;
  mentionOpener: MentionOpener;
  registryUi: RegistryUi;
}

export function hostActions({ protocolLog, mentionOpener, registryUi }: HostActionSources): HostActions {
  return {
    openMention: (request) => mentionOpener.open(request),
    showProtocolLog: () => protocolLog.show(),
    addAgentFromRegistry: () => registryUi.addAgent(),
  };
}
