// How the stdio forwarder finds the IDE tools: the server's URL and the session's token, in its environment.
export const FORWARDER_ENV = { url: 'SWITCHBOARD_IDE_TOOLS_URL', token: 'SWITCHBOARD_IDE_TOOLS_TOKEN' } as const;
