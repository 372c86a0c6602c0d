// Turns the connection's trace events into the "ACP Protocol" log, per `switchboard.trace`:
// `messages` logs direction, method, id and latency; `verbose` adds the JSON, secrets redacted.
import * as vscode from 'vscode';
import type { TraceEvent, TraceHook } from '../../acp';
import { redactProtocolMessage } from '../../agents';

export type TraceLevel = 'off' | 'messages' | 'verbose';

export function readTraceLevel(): TraceLevel {
  const value = vscode.workspace.getConfiguration('switchboard').get<string>('trace');
  return value === 'messages' || value === 'verbose' ? value : 'off';
}

/** One line of the log for an event (pure; exported for tests). */
export function formatTraceEvent(agentName: string, event: TraceEvent, level: Exclude<TraceLevel, 'off'>): string {
  const arrow = event.direction === 'send' ? '→' : '←';
  const id = event.id === undefined ? '' : ` #${String(event.id)}`;
  const method = event.method ?? '(unknown method)';
  const latency = event.latencyMs === undefined ? '' : ` ${event.latencyMs.toFixed(1)} ms`;
  const head = `[${agentName}] ${arrow} ${event.type} ${method}${id}${latency}`;
  if (level === 'messages') return head;
  return `${head}\n${JSON.stringify(redactProtocolMessage(event.json))}`;
}

/** Owns the level (re-read when the setting changes) and hands each agent's connection a trace hook. */
export class ProtocolLog implements vscode.Disposable {
  private level = readTraceLevel();
  private readonly listener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('switchboard.trace')) this.level = readTraceLevel();
  });

  constructor(private readonly channel: vscode.LogOutputChannel) {}

  hookFor(agentName: string): TraceHook {
    return (event) => {
      const level = this.level;
      if (level === 'off') return;
      const line = formatTraceEvent(agentName, event, level);
      if (event.type === 'error') this.channel.warn(line);
      else this.channel.info(line);
    };
  }

  /**
   * A call an agent made to the `switchboard` MCP server (the IDE tools): not ACP, but part of what the agent
   * and the editor said to each other. `messages` logs the tool, its outcome and latency; `verbose` adds the
   * arguments.
   */
  ideToolCall(agentName: string, call: { tool: string; args: unknown; ms: number; answerChars?: number; error?: string }): void {
    const level = this.level;
    if (level === 'off') return;
    const outcome = call.error !== undefined ? `error: ${call.error}` : `answered ${call.answerChars ?? 0} chars`;
    const head = `[${agentName}] ⇄ mcp switchboard/${call.tool} ${call.ms.toFixed(1)} ms, ${outcome}`;
    const line = level === 'verbose' ? `${head}\n${JSON.stringify(call.args)}` : head;
    if (call.error !== undefined) this.channel.warn(line);
    else this.channel.info(line);
  }

  show(): void {
    this.channel.show(true);
    if (this.level === 'off') {
      void vscode.window
        .showInformationMessage('The ACP protocol trace is off. Set switchboard.trace to "messages" or "verbose" to record it.', 'Turn On (verbose)')
        .then((choice) => {
          if (choice) void vscode.workspace.getConfiguration('switchboard').update('trace', 'verbose', vscode.ConfigurationTarget.Global);
        });
    }
  }

  dispose(): void {
    this.listener.dispose();
  }
}
