// The extension's log channels: one for Switchboard, one for the ACP protocol trace, one per agent's stderr.
import * as vscode from 'vscode';

export class LogChannels implements vscode.Disposable {
  readonly main: vscode.LogOutputChannel;
  readonly protocol: vscode.LogOutputChannel;
  private readonly agentChannels = new Map<string, vscode.LogOutputChannel>();

  constructor() {
    this.main = vscode.window.createOutputChannel('Switchboard', { log: true });
    this.protocol = vscode.window.createOutputChannel('ACP Protocol', { log: true });
  }

  /** stderr of one agent; channels are kept for the window's life so crash output stays readable. */
  agent(agentName: string): vscode.LogOutputChannel {
    let channel = this.agentChannels.get(agentName);
    if (!channel) {
      channel = vscode.window.createOutputChannel(`Switchboard: ${agentName}`, { log: true });
      this.agentChannels.set(agentName, channel);
    }
    return channel;
  }

  dispose(): void {
    this.main.dispose();
    this.protocol.dispose();
    for (const channel of this.agentChannels.values()) channel.dispose();
    this.agentChannels.clear();
  }
}
