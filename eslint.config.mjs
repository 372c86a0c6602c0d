import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // The protocol and process layers run in plain Node and are unit-tested there: no VS Code API.
    files: ['src/acp/**', 'src/agents/**', 'src/shared/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/acp, src/agents and src/shared must not import vscode (see DESIGN.md layers).' }] }],
    },
  },
  {
    // The webview is a browser bundle: it may only know the shared transcript/message types.
    files: ['webview-ui/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'The webview cannot use the VS Code API.' }], patterns: [{ group: ['**/src/acp/**', '**/src/host/**', '**/src/agents/**', '**/src/chat/**'], message: 'The webview only imports src/shared.' }] }],
    },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**', '*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
