// Shared set-up for the bridge host tests: a temp "session" folder plus a FileConfinement whose askUser
// (and the sensitive-file check's question) is recorded and scripted by the test.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isBridgeError } from '../../../src/acp/bridgeErrors';
import { FileConfinement, type AccessQuestion, type FileAccessPolicy } from '../../../src/host/fs/fileConfinement';
import type { FsRequestContext } from '../../../src/host/fs/fsBridge';
import { SensitiveWrites, type SensitiveWriteQuestion } from '../../../src/host/fs/sensitiveWrites';

export interface Sandbox {
  /** The session's cwd. */
  root: string;
  /** A folder outside the session's folders. */
  outside: string;
  confinement: FileConfinement;
  /** What the session's requests come with (its folders, turn "turn-1", agent "Fake Agent"). */
  context: FsRequestContext;
  questions: AccessQuestion[];
  answer: boolean;
  policy: FileAccessPolicy;
  /** Asks before writes to sensitive files: recorded in `sensitiveQuestions`, answered `sensitiveAnswer`. */
  sensitive: SensitiveWrites;
  sensitiveQuestions: SensitiveWriteQuestion[];
  sensitiveAnswer: boolean;
  dispose(): void;
}

export function makeSandbox(): Sandbox {
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
    context: { roots: { cwd: root }, turnId: 'turn-1', agentName: 'Fake Agent' },
    dispose: () => fs.rmSync(tmp, { recursive: true, force: true }),
  };
  box.confinement = new FileConfinement({
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
