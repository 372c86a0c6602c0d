// vscode-jsonrpc 10 publishes only an "exports" map (no "main"/"types"), which the
// project's node10 module resolution cannot read. At runtime Node resolves
// 'vscode-jsonrpc/node' through "exports"; this tells TypeScript where its types are.
declare module 'vscode-jsonrpc/node' {
  export * from 'vscode-jsonrpc/lib/node/main';
}
