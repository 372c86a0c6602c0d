// Kilo's, Cline's and Droid's rows of the whole-turn table (../wholeTurn.table.ts).
// Kilo, Cline and Droid (recipes and measured behaviour: test/fixtures/realAgents/kilo.ts, cline.ts,
// droid.ts): the same turn as Qwen's; what a command printed is the agent's own capture, never asserted.
import { openaiChat } from '../../fixtures/modelEndpoint/openaiChat';
import { clineRecipe } from '../../fixtures/realAgents/cline';
import { droidRecipe } from '../../fixtures/realAgents/droid';
import { kiloRecipe } from '../../fixtures/realAgents/kilo';
import { chatScript, LINES, LINES_EDITED } from './chatScript';
import type { WholeTurnRow } from './row';

export const kiloRow: WholeTurnRow = {
  recipe: kiloRecipe,
  handlers: () => [openaiChat],
  title: 'streams text, reads, edits and creates files with permission, runs a shell command, and leaves no process after stop',
  files: { 'notes.txt': LINES },
  script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi', editOld: 'line two\n', editNew: 'line 2\n', done: 'All done.' }),
  prompt: 'Fix the notes',
  expect: { version: '7.7.7', text: 'Let me read the notes first.Now the edit.All done.', files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new\n' }, toolCalls: 4, asks: ['read', 'edit', 'edit', 'execute'] },
};

export const clineRow: WholeTurnRow = {
  recipe: clineRecipe,
  handlers: () => [openaiChat],
  title: 'streams text, reads, edits and creates files with permission, runs a shell command, and leaves no process after stop',
  files: { 'notes.txt': LINES },
  script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi', editOld: 'line two\n', editNew: 'line 2\n', done: 'All done.' }),
  prompt: 'Fix the notes',
  // Cline's apply_patch drops the final newline of an added file; its hub daemon is ended by stop.
  expect: { version: '3.0.65', text: 'Let me read the notes first.Now the edit.All done.', files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new' }, toolCalls: 4, asks: ['read', 'other', 'other', 'execute'] },
  daemon: '--cline-hub-daemon',
};

export const droidRow: WholeTurnRow = {
  recipe: droidRecipe,
  handlers: () => [openaiChat],
  title: 'streams text, reads, edits and creates files with permission, runs a shell command, and leaves no process after stop',
  files: { 'notes.txt': LINES },
  script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi', editOld: 'line two\n', editNew: 'line 2\n', done: 'All done.' }),
  prompt: 'Fix the notes',
  expect: { version: '0.215.0', text: 'Let me read the notes first.Now the edit.All done.', files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new\n' }, toolCalls: 4, asks: ['edit', 'edit', 'execute'] },
};
