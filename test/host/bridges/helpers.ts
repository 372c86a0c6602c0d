// Shared set-up for the bridge host tests: a temp "session" folder plus a FileConfinement whose askUser
// (and the sensitive-file check's question) is recorded and scripted by the test.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isBridgeError } from '../../../src/acp/bridgeErrors';
import { FileConfinement, type AccessQuestion, type FileAccessPolicy } from '../../../src/host/fs/fileConfinement';
import { SensitiveWrites, type SensitiveWriteQuestion } from '../../../src/host/fs/sensitiveWrites';

export interface Sandbox {
  /** The session's cwd. */
  root: string;
  /** A folder outside the session's folders. */
  outside: string;
  confinement: FileConfinement;
  questions: AccessQuestion[];
  answer: boolean;
  policy: FileAccessPolicy;
  /** Asks before writes to sensitive files: recorded in `sensitiveQuestions`, answered `sensitiveAnswer`. */
  sensitive: SensitiveWrites;
  sensitiveQuestions: SensitiveWriteQuestion[];
  sensitiveAnswer: boolean;
  dispose(): void;
}

export function makeSandbox(sessionId = 'sess-1'): Sandbox {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bridges-')));
  const root = path.join(tmp, 'project');
  const outside = path.join(tmp, 'elsewhere');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  const box: Sandbox = {
    root,
    outside,
    questions: [],
    answer: false,
    policy: 'ask',
    sensitiveQuestions: [],
    sensitiveAnswer: false,
    sensitive: new SensitiveWrites({
      ask: async (q) => {
        box.sensitiveQuestions.push(q);
        return box.sensitiveAnswer;
      },
    }),
    confinement: undefined as unknown as FileConfinement,
    dispose: () => fs.rmSync(tmp, { recursive: true, force: true }),
  };
  box.confinement = new FileConfinement({
    getRoots: (id) => (id === sessionId ? { cwd: root } : undefined),
    getPolicy: () => box.policy,
    askUser: async (q) => {
      box.questions.push(q);
      return box.answer;
    },
  });
  return box;
}

/** A predicate for assert.rejects: a BridgeError with this code (and reason). */
export function bridgeError(code: number, reason?: string): (e: unknown) => boolean {
  return (e) => isBridgeError(e) && e.code === code && (reason === undefined || e.data.reason === reason);
}
