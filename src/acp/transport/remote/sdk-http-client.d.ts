// The SDK publishes its experimental transports only through an "exports" map, which the project's
// node10 module resolution cannot read (as with vscode-jsonrpc/node); this says where the types are.
declare module '@agentclientprotocol/sdk/experimental/http-client' {
  export * from '@agentclientprotocol/sdk/dist/transports/http-stream';
}
