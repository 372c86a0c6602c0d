// The IDE tools' calls in the protocol log (switchboard.trace): each call with the agent's name, the tool, its
// latency and outcome; `verbose` adds the arguments; `off` logs nothing. The log writes to a LogOutputChannel;
// here a channel that keeps its lines stands in for VS Code's output panel.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ProtocolLog } from '../../../src/host/log/protocolLog';
import { setSettings } from '../index';

function keepingChannel(): { channel: vscode.LogOutputChannel; lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  const channel = { info: keep('info'), warn: keep('warn'), error: keep('error'), debug: keep('debug'), trace: keep('trace') } as unknown as vscode.LogOutputChannel;
  return { channel, lines };
}

describe('IDE tools in the protocol log', () => {
  let restore: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await restore?.();
    restore = undefined;
  });

  async function logWith(level: string): Promise<{ log: ProtocolLog; lines: string[] }> {
    restore = await setSettings({ 'switchboard.trace': level });
    const { channel, lines } = keepingChannel();
    return { log: new ProtocolLog(channel), lines };
  }

  it('messages: the agent, the tool, the time and the answer size; an error as a warning', async () => {
    const { log, lines } = await logWith('messages');
    log.ideToolCall('Claude Agent', { tool: 'diagnostics', args: { path: '/ws/a.json' }, ms: 12.34, answerChars: 210 });
    log.ideToolCall('Claude Agent', { tool: 'hover', args: { path: '/etc/passwd' }, ms: 1, error: '/etc/passwd is outside the session\'s folders' });
    log.dispose();
    assert.deepStrictEqual(lines, [
      'info [Claude Agent] ⇄ mcp switchboard/diagnostics 12.3 ms, answered 210 chars',
      "warn [Claude Agent] ⇄ mcp switchboard/hover 1.0 ms, error: /etc/passwd is outside the session's folders",
    ]);
  });

  it('verbose adds the arguments; off logs nothing', async () => {
    const verbose = await logWith('verbose');
    verbose.log.ideToolCall('Qwen Code', { tool: 'definition', args: { path: '/ws/use.ts', line: 3, character: 29 }, ms: 5, answerChars: 80 });
    verbose.log.dispose();
    assert.strictEqual(verbose.lines.length, 1);
    assert.match(verbose.lines[0], /switchboard\/definition .*\n\{"path":"\/ws\/use\.ts","line":3,"character":29\}$/);
    await restore?.();
    const off = await logWith('off');
    off.log.ideToolCall('Qwen Code', { tool: 'definition', args: {}, ms: 5 });
    off.log.dispose();
    assert.deepStrictEqual(off.lines, []);
  });
});
