// The layer table is lint: snippets placed in each folder are linted with the repository's own
// eslint.config.mjs, so a rule that stopped catching an arrow (a barrel, a re-export, a type-only import)
// fails here, not in review.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ESLint } from 'eslint';

const REPO = path.resolve(__dirname, '../../..');

let eslint: ESLint;

/** The rule ids and messages eslint reports for `code` as if it were the file at `file` (repository-relative). */
async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return result.messages.filter((m) => m.ruleId !== '@typescript-eslint/no-unused-vars').map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint: the layer table', function () {
  this.timeout(60_000);
  before(async () => {
    // eslint is ESM-only; this file compiles to CommonJS.
    const { ESLint: Ctor } = (await import('eslint')) as typeof import('eslint');
    eslint = new Ctor({ cwd: REPO });
  });

  const refused: Array<[string, string, RegExp]> = [
    ['src/acp/connection/x.ts', "import { Session } from '../../host/session/session';\nexport const s = Session;", /src\/acp may not import src\/host\/session/],
    ['src/shared/x.ts', "import { TranscriptState } from '../acp';\nexport const t = TranscriptState;", /src\/shared may not import src\/acp \(\.\.\/acp\)/],
    ['src/shared/x.ts', "import { TranscriptState } from '../acp/index';\nexport const t = TranscriptState;", /src\/shared may not import src\/acp \(\.\.\/acp\/index\)/],
    ['src/agents/x.ts', "export * from '../host/log/logChannels';", /src\/agents may not import src\/host\/log/],
    ['src/agents/x.ts', "export async function f() { return import('../chat/chatController'); }", /src\/agents may not import src\/chat/],
    ['src/acp/x.ts', "export type S = import('../host/session/session').Session;", /src\/acp may not import src\/host\/session/],
    ['src/host/fs/x.ts', "import { Session } from '../session/session';\nexport const s = Session;", /src\/host\/fs may not import src\/host\/session/],
    ['src/host/ideTools/x.ts', "import { Session } from '../session/session';\nexport const s = Session;", /src\/host\/ideTools may not import src\/host\/session/],
    ['src/host/fs/x.ts', "import { IdeTools } from '../ideTools/ideTools';\nexport const i = IdeTools;", /src\/host\/fs may not import src\/host\/ideTools/],
    ['src/host/session/x.ts', "import { ServicesImpl } from '../startup/services';\nexport const s = ServicesImpl;", /src\/host\/session may not import src\/host\/startup/],
    ['src/chat/x.ts', "import { Session } from '../host/session/session';\nexport const s = Session;", /src\/chat may not import src\/host\/session/],
    ['src/host/agents/x.ts', "import { Session } from '../session/session';\nexport const s = Session;", /src\/host\/agents may not import src\/host\/session/],
    ['src/host/agents/x.ts', "export type R = import('../registry/registryService').RegistryService;", /src\/host\/agents may not import src\/host\/registry/],
    ['src/host/registry/x.ts', "import { Session } from '../session/session';\nexport const s = Session;", /src\/host\/registry may not import src\/host\/session/],
    ['src/host/session/x.ts', "export * from '../registry/registryService';", /src\/host\/session may not import src\/host\/registry/],
    ['webview-ui/src/x.ts', "import { TranscriptState } from '../../src/acp';\nexport const t = TranscriptState;", /webview-ui may not import src\/acp/],
    ['src/extension.ts', "import { Session } from './host/session/session';\nexport const s = Session;", /src\/extension\.ts may not import src\/host\/session/],
    ['src/host/loose.ts', 'export const x = 1;', /Put this file in one of src\/host\//],
    ['src/host/session/x.ts', "import type { ContentBlock } from '@agentclientprotocol/sdk';\nexport type C = ContentBlock;", /Take protocol types from src\/acp/],
    ['src/shared/x.ts', "import type { ContentBlock } from '@agentclientprotocol/sdk';\nexport type C = ContentBlock;", /Take protocol types from src\/acp/],
    ['webview-ui/src/x.ts', "import type { ContentBlock } from '@agentclientprotocol/sdk';\nexport type C = ContentBlock;", /Take protocol types from src\/acp/],
    ['src/chat/x.ts', "import { ResponseError } from 'vscode-jsonrpc/node';\nexport const e = ResponseError;", /The JSON-RPC engine is src\/acp/],
    ['src/acp/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;", /must not import vscode/],
    ['src/agents/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;", /must not import vscode/],
    ['src/host/session/x.ts', "import { z } from 'zod';\nexport const s = z.string();", /zod\/mini with English messages/],
  ];
  for (const [file, code, expected] of refused) {
    it(`refuses in ${file}: ${code.split('\n')[0]}`, async () => {
      const messages = await lint(file, code);
      assert.ok(messages.some((m) => expected.test(m)), `expected ${expected} in:\n${messages.join('\n') || '(no problems)'}`);
    });
  }

  const allowed: Array<[string, string]> = [
    ['src/host/session/x.ts', "import { TranscriptState } from '../../acp';\nexport const t = TranscriptState;"],
    ['src/host/terminal/x.ts', "import { FsBridge } from '../fs/fsBridge';\nexport const f = FsBridge;"],
    ['src/host/ideTools/x.ts', "import { FileConfinement } from '../fs/fileConfinement';\nexport const f = FileConfinement;"],
    ['src/host/session/x.ts', "import type { IdeTools } from '../ideTools/ideTools';\nexport type I = IdeTools;"],
    ['src/host/startup/x.ts', "import { SessionBackend } from '../session/sessionBackend';\nexport const b = SessionBackend;"],
    ['src/host/session/x.ts', "import type { AgentRuntime } from '../agents/agentRuntime';\nexport type R = AgentRuntime;"],
    ['src/host/registry/x.ts', "import type { InstalledAgentSource } from '../agents/agentConfiguration';\nexport type S = InstalledAgentSource;"],
    ['src/host/startup/x.ts', "import { RegistryService } from '../registry/registryService';\nexport const r = RegistryService;"],
    ['src/chat/x.ts', "import type { Transcript } from '../shared/transcript';\nexport type T = Transcript;"],
    ['webview-ui/src/x.ts', "import type { Transcript } from '../../src/shared/transcript';\nexport type T = Transcript;"],
    ['src/extension.ts', "import { LazyServices } from './host/startup/lazyServices';\nexport const l = LazyServices;"],
  ];
  for (const [file, code] of allowed) {
    it(`allows in ${file}: ${code.split('\n')[0]}`, async () => {
      assert.deepEqual(await lint(file, code), []);
    });
  }
});
