// Every agent->client request, routed to the editor bridge that answers it. The bridges are shared by all
// agents, so they see agent-qualified session ids; a BridgeError becomes the JSON-RPC error the agent sees.
import * as vscode from 'vscode';
import { errorMessage, invalidParams, isBridgeError, type ClientRequestHandlers, type IncomingRequestContext } from '../../acp';
import type { FsBridge, FsRequestContext } from '../fs/fsBridge';
import type { ElicitationBroker } from '../permissions/elicitationBroker';
import type { PermissionBroker, PermissionContext } from '../permissions/permissionBroker';
import type { TerminalBridge, TerminalRequestContext } from '../terminal/terminalBridge';
import { requestOwner } from './childSessions';
import type { Session } from './session';
import type { TurnFiles } from './turn/turnFiles';

export interface AgentRequestDeps {
  log: vscode.LogOutputChannel;
  fs: FsBridge;
  terminals: TerminalBridge;
  permissions: PermissionBroker;
  elicitations: ElicitationBroker;
  turnFiles: TurnFiles;
  /** The session an agent-qualified session id belongs to. */
  sessionOf(scopedId: string): Session | undefined;
  /** The open session that keeps an agent's never-announced child under "Unknown subagent". */
  strangerHost(agentName: string): Session | undefined;
}

/** What the bridges know of the session a request belongs to (each bridge names the part it reads). */
type RequestContext = FsRequestContext & TerminalRequestContext & PermissionContext;

/** The session's context, read when its request arrives and passed down with it. */
function requestContext(session: Session): RequestContext {
  return {
    roots: { cwd: session.cwd, additionalDirectories: session.additionalDirectories },
    turnId: session.turnId,
    agentName: session.agentId,
    toolKindOf: (toolCallId: string) => session.toolKindOf(toolCallId),
    name: runningToolTitle(session),
  };
}

/** A terminal is named after the tool call that is running when it starts. */
function runningToolTitle(session: Session): string | undefined {
  const items = session.transcript.items;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'tool_call' && item.status !== 'completed' && item.status !== 'failed') return item.title;
  }
  return undefined;
}

export function agentRequestHandlers(agentName: string, deps: AgentRequestDeps): Partial<ClientRequestHandlers> {
  const answer = async <R>(run: () => R | Promise<R>): Promise<R> => {
    try {
      return await run();
    } catch (error) {
      if (!isBridgeError(error)) deps.log.error(`[${agentName}] request failed: ${errorMessage(error)}`);
      throw error;
    }
  };
  /**
   * The request with its session id made agent-qualified, and the open session of that id. A child
   * session's (subagent's) request is its root session's: its folders, turn, terminals and cards.
   */
  const scoped = <P extends { sessionId: string }>(params: P, context: IncomingRequestContext) => {
    const sessionId = requestOwner(context.route, agentName, params.sessionId);
    return { params: { ...params, sessionId }, session: deps.sessionOf(sessionId) };
  };
  /**
   * Where a permission request shows: its session's cards, in the nest of the subagent that asks; a child
   * no one announced asks in the session that keeps its updates, under "Unknown subagent".
   */
  const asking = <P extends { sessionId: string }>(raw: P, incoming: IncomingRequestContext) => {
    const route = incoming.route;
    const host = route?.kind === 'unknown' ? deps.strangerHost(agentName) : undefined;
    if (host) return { params: { ...raw, sessionId: host.scopedId }, session: host, nest: { subagentPath: [raw.sessionId] } };
    return { ...scoped(raw, incoming), nest: route?.kind === 'child' ? { subagentPath: route.path } : {} };
  };
  /** A request that needs its session's context (folders, turn): refused for a session that is not open. */
  const inSession =
    <P extends { sessionId: string }, R>(run: (params: P, context: RequestContext) => R | Promise<R>) =>
    (raw: P, request: IncomingRequestContext): Promise<R> =>
      answer(() => {
        const { params, session } = scoped(raw, request);
        if (!session) throw invalidParams(`Unknown session: ${raw.sessionId}`, { reason: 'unknown_session' });
        return run(params, requestContext(session));
      });
  /** A request about something the session already has (a terminal by its id). */
  const byId =
    <P extends { sessionId: string }, R>(run: (params: P) => R | Promise<R>) =>
    (raw: P, request: IncomingRequestContext): Promise<R> =>
      answer(() => run(scoped(raw, request).params));
  const t = deps.terminals;
  return {
    'fs/read_text_file': inSession((p, context) => deps.fs.readTextFile(p, context)),
    'fs/write_text_file': inSession((p, context) => deps.fs.writeTextFile(p, context)),
    'terminal/create': inSession((p, context) => t.create(p, context)),
    'terminal/output': byId((p) => t.output(p)),
    'terminal/wait_for_exit': byId((p) => t.waitForExit(p)),
    'terminal/kill': byId((p) => t.kill(p)),
    'terminal/release': byId((p) => t.release(p)),
    'session/request_permission': (raw, incoming) =>
      answer(async () => {
        const { params, session, nest } = asking(raw, incoming);
        if (session) await deps.turnFiles.snapshotAsked(session.turnRef, params.toolCall);
        const request = params as Parameters<PermissionBroker['handle']>[0];
        return deps.permissions.handle(request, { ...(session ? requestContext(session) : { agentName }), ...nest, signal: incoming.signal });
      }),
    // Request-scoped elicitations (before a session exists) carry no sessionId.
    'elicitation/create': (raw, request) =>
      answer(() => {
        const params = raw.sessionId === undefined ? raw : { ...raw, sessionId: requestOwner(request.route, agentName, raw.sessionId) };
        return deps.elicitations.handle(params as Parameters<ElicitationBroker['handle']>[0], request.signal);
      }),
  };
}
