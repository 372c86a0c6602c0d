import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { hostFolders, layersPlugin } from './eslint.layers.mjs';

// zod's classic API ('zod') costs the chat's startup bundle ~105 KB more than zod/mini, which keeps only the
// schema kinds we use; src/shared/zod.ts and src/agents/zod.ts are zod/mini with its English messages.
const zodWrapper = 'Import * as z from src/shared/zod.ts (src/agents/zod.ts in src/agents): zod/mini with English messages';
const zodImports = [
  { name: 'zod', message: `${zodWrapper}; classic zod is ~105 KB more in the bundle.` },
  { name: 'zod/v4', message: `${zodWrapper}; classic zod is ~105 KB more in the bundle.` },
  { name: 'zod/mini', message: `${zodWrapper} (zod/mini alone has none).` },
];
const protocolOwnedByAcp = [
  { group: ['@agentclientprotocol/sdk', '@agentclientprotocol/sdk/*'], message: 'Take protocol types from src/acp.' },
  { group: ['vscode-jsonrpc', 'vscode-jsonrpc/*'], message: 'The JSON-RPC engine is src/acp’s: use its errors and connection.' },
];
const noVscode = { name: 'vscode', message: 'src/acp, src/agents and src/shared must not import vscode (see ARCHITECTURE.md).' };

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test/fixtures/workspace/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The layer table (ARCHITECTURE.md): which folder may import which. Every import is resolved to a file
    // first, so barrels (`../../acp`) and `export … from` count the same as direct imports.
    files: ['src/**', 'webview-ui/src/**'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/imports': 'error' },
  },
  {
    // Every host file sits in the folder of what it bridges.
    files: ['src/host/*.ts', 'src/host/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message: `Put this file in one of src/host/{${hostFolders}}.` }] },
  },
  {
    // zod through the wrappers only. A later block's options for this rule replace these, so each repeats zodImports.
    files: ['src/**'],
    rules: { 'no-restricted-imports': ['error', { paths: zodImports }] },
  },
  {
    // The protocol and process layers run in plain Node and are unit-tested there: no VS Code API.
    files: ['src/acp/**', 'src/agents/**', 'src/shared/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode, ...zodImports] }],
    },
  },
  {
    // src/shared is what the webview compiles against: the transcript model is ours, not the wire's.
    files: ['src/shared/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode, ...zodImports], patterns: protocolOwnedByAcp }] },
  },
  {
    // The two places zod/mini is imported from.
    files: ['src/shared/zod.ts', 'src/agents/zod.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode, ...zodImports.filter((p) => p.name !== 'zod/mini')], patterns: protocolOwnedByAcp }],
    },
  },
  {
    // src/acp owns the protocol: host and chat code take its types and errors from there.
    files: ['src/host/**', 'src/chat/**'],
    rules: { 'no-restricted-imports': ['error', { paths: zodImports, patterns: protocolOwnedByAcp }] },
  },
  {
    // The webview is a browser bundle that knows the shared transcript types, not ACP's wire format.
    files: ['webview-ui/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'The webview cannot use the VS Code API.' }], patterns: protocolOwnedByAcp }],
    },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**', '*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
