// The layer table: for each folder, the folders of ours it may import. ARCHITECTURE.md draws the same
// table; change both together. `layersPlugin` resolves every relative import to a file before matching,
// so a barrel (`../../acp`) counts as its folder; `export … from`, `import()` and `import('…').T` in types are
// checked too. test/tooling/layers.test.ts lints snippets against it.
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);
const host = ['fs', 'terminal', 'permissions', 'auth', 'ideTools', 'mentions', 'agents', 'registry', 'session', 'diff', 'log', 'startup'];

/** Folder (relative to the repository) -> the folders of ours it may import besides itself. */
const allowed = {
  // Activation only: the log channels and the lazy services (ARCHITECTURE.md, "What loads when").
  'src/extension.ts': ['src/host/log', 'src/host/startup'],
  'src/shared': [],
  'src/acp': ['src/shared'],
  'src/agents': [],
  'src/chat': ['src/shared', 'src/acp'],
  'webview-ui': ['src/shared'],
  'src/host/log': ['src/shared', 'src/acp', 'src/agents'],
  'src/host/fs': ['src/shared', 'src/acp', 'src/agents', 'src/host/log'],
  'src/host/terminal': ['src/shared', 'src/acp', 'src/agents', 'src/host/fs', 'src/host/log'],
  'src/host/permissions': ['src/shared', 'src/acp', 'src/agents', 'src/host/log'],
  'src/host/diff': ['src/shared', 'src/acp', 'src/agents', 'src/host/fs', 'src/host/log'],
  'src/host/auth': ['src/shared', 'src/acp', 'src/agents', 'src/host/log'],
  'src/host/ideTools': ['src/shared', 'src/acp', 'src/agents', 'src/host/fs', 'src/host/log'],
  'src/host/mentions': ['src/shared', 'src/acp', 'src/agents', 'src/host/fs', 'src/host/log'],
  // One agent process or connection: its runtime, launchers, sign-in, providers, status. Never a session.
  'src/host/agents': ['src/shared', 'src/acp', 'src/agents', 'src/host/auth', 'src/host/permissions', 'src/host/log'],
  // The registry's commands and install UI, beside the agents it installs.
  'src/host/registry': ['src/shared', 'src/acp', 'src/agents', 'src/host/agents', 'src/host/permissions', 'src/host/log'],
  'src/host/session': ['src/shared', 'src/acp', 'src/agents', 'src/chat', ...host.filter((h) => h !== 'startup' && h !== 'registry').map((h) => `src/host/${h}`)],
  'src/host/startup': ['src/shared', 'src/acp', 'src/agents', 'src/chat', ...host.map((h) => `src/host/${h}`)],
};
const rooms = Object.keys(allowed).sort((a, b) => b.length - a.length);
const roomOf = (file) => rooms.find((r) => file === r || file.startsWith(`${r}/`)) ?? (file.startsWith('src/') ? file : undefined);

function resolve(fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return base;
}

const importRule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const from = roomOf(file);
    if (!from || !allowed[from]) return {};
    const check = (node) => {
      // `import('…').T` in a type (TSImportType) names its module in `argument`, older parsers in `argument.literal`.
      const source = node.type === 'TSImportType' ? (node.argument?.literal ?? node.argument) : node.source;
      const spec = source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.relative(root, resolve(context.filename, spec)).split(path.sep).join('/');
      const to = roomOf(target);
      if (!to || to === from || allowed[from].includes(to)) return;
      context.report({ node: source, message: `${from} may not import ${to} (${spec}); it may import ${allowed[from].join(', ') || 'nothing of ours'} (see ARCHITECTURE.md).` });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check, TSImportType: check };
  },
};

export const layersPlugin = { rules: { imports: importRule } };
export const hostFolders = host;
