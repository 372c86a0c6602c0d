import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { hostFolders, layersPlugin } from './eslint.layers.mjs';

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
    // The protocol and process layers run in plain Node and are unit-tested there: no VS Code API.
    files: ['src/acp/**', 'src/agents/**', 'src/shared/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/acp, src/agents and src/shared must not import vscode (see ARCHITECTURE.md).' }] }],
    },
  },
  {
    // src/acp owns the protocol: host and chat code take its types and errors from there.
    files: ['src/host/**', 'src/chat/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@agentclientprotocol/sdk', '@agentclientprotocol/sdk/*'], message: 'Take protocol types from src/acp.' },
            { group: ['vscode-jsonrpc', 'vscode-jsonrpc/*'], message: 'The JSON-RPC engine is src/acp’s: use its errors and connection.' },
          ],
        },
      ],
    },
  },
  {
    // The webview is a browser bundle.
    files: ['webview-ui/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'The webview cannot use the VS Code API.' }] }],
    },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**', '*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
