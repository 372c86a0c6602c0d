/** Where the ACP Registry's list is read when `switchboard.registry.url` says nothing else. */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
