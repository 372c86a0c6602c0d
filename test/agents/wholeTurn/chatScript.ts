// The turn the OpenAI Chat agents' rows script (Qwen, OpenCode, Kilo, Cline, Droid): the notes they start
// with and end with, and the model's steps: read, edit, a new file, a shell command, the answer.
import * as path from 'path';
import type { Step } from '../../fixtures/modelEndpoint/endpoint';

export const LINES = 'line one\nline two\nline three\n';
export const LINES_EDITED = 'line one\nline 2\nline three\n';
export function chatScript(cwd: string, o: { shell: string; editOld: string; editNew: string; done: string }): Step[] {
  const notes = path.join(cwd, 'notes.txt');
  return [
    { text: 'Let me read the notes first.', tools: [{ read: { path: notes } }] },
    { text: 'Now the edit.', tools: [{ edit: { path: notes, oldText: o.editOld, newText: o.editNew } }] },
    { tools: [{ write: { path: path.join(cwd, 'added.txt'), content: 'brand new\n' } }] },
    { tools: [{ shell: { command: o.shell } }] },
    { text: o.done },
  ];
}
