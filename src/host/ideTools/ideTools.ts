// The `switchboard` MCP server entry each session gets (setting `switchboard.ideTools`): a token of its own
// on the IDE tools' HTTP server, given as an `http` entry to agents that announce `mcpCapabilities.http`, else
// as a `stdio` entry running the forwarder shipped in the VSIX (stdioForwarder.ts). The server and the MCP
// SDK are a bundle of their own (dist/ideToolsServer.js, built by esbuild.mjs), imported when the first session
// opens; the server closes when its last session's token is released.
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { errorMessage, type McpServer } from '../../acp';
import type { SessionRoots } from '../fs/fileConfinement';
import { FORWARDER_ENV } from './forwarderEnv';
import type { ProtocolLog } from '../log/protocolLog';
import type { IdeToolsServer } from './ideToolsServer';

export const IDE_TOOLS_NAME = 'switchboard';
/** The bundles esbuild.mjs builds for the forwarder and the server. */
const FORWARDER_SCRIPT = ['dist', 'ideToolsStdio.js'];
const SERVER_SCRIPT = ['dist', 'ideToolsServer.js'];

export interface IdeToolsOptions {
  log: vscode.LogOutputChannel;
  /** Each tool call is listed in the protocol log with the agent's name. */
  protocolLog: Pick<ProtocolLog, 'ideToolCall'>;
  extensionPath: string;
  version: string;
}

export interface IdeToolsSession extends SessionRoots {
  key: string;
  agentId: string;
}

export class IdeTools implements vscode.Disposable {
  private server: Promise<IdeToolsServer> | undefined;
  /** Session key -> its token. */
  private readonly tokens = new Map<string, string>();
  /** Entries being made: the server must not close under them. */
  private opening = 0;

  constructor(private readonly o: IdeToolsOptions) {}

  /**
   * The session's MCP entry (a new token; an earlier one of the same session stops), or undefined when the
   * setting is off or the server cannot start (logged; the session opens without the tools).
   */
  async entryFor(session: IdeToolsSession, http: boolean): Promise<McpServer | undefined> {
    // Counted first, so that releasing the session's earlier token does not close the server under it.
    this.opening++;
    try {
      await this.release(session.key);
      if (!vscode.workspace.getConfiguration('switchboard').get<boolean>('ideTools', true)) return undefined;
      const [server, { VSCodeIdeTools }] = await Promise.all([this.start(), import('./vscodeTools')]);
      const roots = { cwd: session.cwd, additionalDirectories: [...(session.additionalDirectories ?? [])] };
      const token = server.grant(`${session.agentId} (session ${session.key.slice(0, 8)})`, new VSCodeIdeTools(roots), (call) => this.o.protocolLog.ideToolCall(session.agentId, call));
      this.tokens.set(session.key, token);
      this.o.log.info(`IDE tools: ${session.agentId} gets the ${IDE_TOOLS_NAME} MCP server over ${http ? 'HTTP' : 'stdio'} for ${[session.cwd, ...(session.additionalDirectories ?? [])].join(', ')}`);
      return http ? this.httpEntry(server.url, token) : this.stdioEntry(server.url, token);
    } catch (error) {
      this.o.log.error(`IDE tools could not start, so ${session.agentId}'s session opens without them: ${errorMessage(error)}`);
      return undefined;
    } finally {
      this.opening--;
      await this.stopWhenUnused();
    }
  }

  /** The session closed or lost its agent: its token stops; the server closes with the last one. */
  async release(key: string): Promise<void> {
    const token = this.tokens.get(key);
    if (!token) return;
    this.tokens.delete(key);
    const server = await this.server?.catch(() => undefined);
    await server?.revoke(token);
    await this.stopWhenUnused();
  }

  dispose(): void {
    this.tokens.clear();
    void this.stop();
  }

  private start(): Promise<IdeToolsServer> {
    const bundle = pathToFileURL(nodePath.join(this.o.extensionPath, ...SERVER_SCRIPT)).href;
    if (this.server) return this.server;
    const started = loadServerModule(bundle).then(async ({ IdeToolsServer }) => {
      const server = await IdeToolsServer.start(this.o.log, this.o.version);
      this.o.log.info(`IDE tools: MCP server listening on ${server.url}`);
      return server;
    });
    this.server = started;
    // A failed start is tried again by the next session.
    started.catch(() => this.server === started && (this.server = undefined));
    return started;
  }

  private async stopWhenUnused(): Promise<void> {
    if (this.tokens.size === 0 && this.opening === 0) await this.stop();
  }

  private async stop(): Promise<void> {
    const pending = this.server;
    this.server = undefined;
    const server = await pending?.catch(() => undefined);
    if (!server) return;
    await server.close();
    this.o.log.info('IDE tools: MCP server stopped (no session uses it)');
  }

  private httpEntry(url: string, token: string): McpServer {
    return { type: 'http', name: IDE_TOOLS_NAME, url, headers: [{ name: 'Authorization', value: `Bearer ${token}` }] };
  }

  /** VS Code's own runtime runs the forwarder (Electron's binary needs ELECTRON_RUN_AS_NODE to act as Node). */
  private stdioEntry(url: string, token: string): McpServer {
    return {
      name: IDE_TOOLS_NAME,
      command: process.execPath,
      args: [nodePath.join(this.o.extensionPath, ...FORWARDER_SCRIPT)],
      env: [
        { name: 'ELECTRON_RUN_AS_NODE', value: '1' },
        { name: FORWARDER_ENV.url, value: url },
        { name: FORWARDER_ENV.token, value: token },
      ],
    };
  }
}

type ServerModule = typeof import('./ideToolsServer');

/** The server's CommonJS bundle through import(): its exports, named or under `default`. */
async function loadServerModule(url: string): Promise<ServerModule> {
  const loaded = (await import(url)) as Partial<ServerModule> & { default?: ServerModule };
  return loaded.IdeToolsServer ? (loaded as ServerModule) : loaded.default!;
}
