// The layer table: for each folder, the folders of ours it may NOT import. ARCHITECTURE.md draws the same
// table; change both together.
const all = ['src/acp', 'src/agents', 'src/shared', 'src/chat', 'src/host', 'src/extension.ts', 'webview-ui'];
const host = ['fs', 'terminal', 'permissions', 'auth', 'session', 'diff', 'log'];

/** `target` may import only `allowed` (and itself). */
function only(target, allowed) {
  return {
    target: `./${target}`,
    from: all.filter((f) => !allowed.includes(f) && !target.startsWith(f) && !f.startsWith(target)).map((f) => `./${f}`),
    message: `${target} may import only ${allowed.join(', ') || 'nothing of ours'} (see ARCHITECTURE.md).`,
  };
}

/** Inside src/host: `sub` may import only these host folders. */
function hostOnly(sub, allowed) {
  return {
    target: `./src/host/${sub}`,
    from: host.filter((h) => h !== sub && !allowed.includes(h)).map((h) => `./src/host/${h}`),
    message: `src/host/${sub} may import only ${allowed.map((a) => `host/${a}`).join(', ') || 'no other host folder'} (see ARCHITECTURE.md).`,
  };
}

export const layerZones = [
  only('src/shared', []),
  only('src/acp', ['src/shared']),
  only('src/agents', []),
  only('src/chat', ['src/shared', 'src/acp']),
  only('src/host', ['src/shared', 'src/acp', 'src/agents', 'src/chat']),
  only('webview-ui', ['src/shared']),
  hostOnly('log', []),
  hostOnly('fs', ['log']),
  hostOnly('terminal', ['fs', 'log']),
  hostOnly('permissions', ['log']),
  hostOnly('diff', ['fs', 'log']),
  hostOnly('auth', ['log']),
  hostOnly('session', ['fs', 'terminal', 'permissions', 'auth', 'diff', 'log']),
].filter((zone) => zone.from.length > 0);
