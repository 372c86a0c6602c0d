// Every agent->client request, routed to the editor bridge that answers it. The bridges are shared by all
// agents, so they see agent-qualified session ids; a BridgeError becomes the JSON-RPC error the agent sees.
import * as vscode from 'vscode';
import { errorMessage, isBridgeError, type ClientRequestHandlers } from '../../acp';
import type { FsBridge } from '../fs/fsBridge';
import type { ElicitationBroker } from '../permissions/elicitationBroker';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { TerminalBridge } from '../terminal/terminalBridge';
import { scopedSessionId, type Session } from './session';
import type { TurnFiles } from './turnFiles';

export interface AgentRequestDeps {
  log: vscode.LogOutputChannel;
  fs: FsBridge;
  terminals: TerminalBridge;
  permissions: PermissionBroker;
  elicitations: ElicitationBroker;
  turnFiles: TurnFiles;
  /** The session an agent-qualified session id belongs to. */
  sessionOf(scopedId: string): Session | undefined;
}

/** A terminal is named after the tool call that is running when it starts. */
function terminalName(session: Session | undefined): string | undefined {
  const items = session?.transcript.items ?? [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'tool_call' && item.status !== 'completed' && item.status !== 'failed') return item.title;
  }
  return undefined;
}

export function agentRequestHandlers(agentName: string, d: AgentRequestDeps): Partial<ClientRequestHandlers> {
  const wrap =
    <P extends { sessionId?: string }, R>(run: (params: P) => R | Promise<R>) =>
    async (params: P): Promise<R> => {
      try {
        // Request-scoped elicitations (before a session exists) carry no sessionId.
        const scoped = params.sessionId === undefined ? params : { ...params, sessionId: scopedSessionId(agentName, params.sessionId) };
        return await run(scoped);
      } catch (error) {
        if (!isBridgeError(error)) d.log.error(`[${agentName}] request failed: ${errorMessage(error)}`);
        throw error;
      }
    };
  const t = d.terminals;
  return {
    'fs/read_text_file': wrap((p) => d.fs.readTextFile(p)),
    'fs/write_text_file': wrap((p) => d.fs.writeTextFile(p)),
    'terminal/create': wrap((p) => t.create(p, { name: terminalName(d.sessionOf(p.sessionId)) })),
    'terminal/output': wrap((p) => t.output(p)),
    'terminal/wait_for_exit': wrap((p) => t.waitForExit(p)),
    'terminal/kill': wrap((p) => t.kill(p)),
    'terminal/release': wrap((p) => t.release(p)),
    'session/request_permission': wrap(async (p) => {
      const session = d.sessionOf(p.sessionId);
      if (session) await d.turnFiles.snapshotAsked(session.turnRef, p.toolCall);
      return d.permissions.handle(p as Parameters<PermissionBroker['handle']>[0]);
    }),
    'elicitation/create': wrap((p) => d.elicitations.handle(p as Parameters<ElicitationBroker['handle']>[0])),
  };
}
