// ChatController routing the webview's actions: to the backend (permission, pickers, history, editor actions,
// mentions) and to the host's own features (HostActions: opening chips, the protocol log, the ACP Registry).
import * as assert from 'node:assert/strict';
import { ChatController } from '../../../src/chat/chatController';
import { fakeActions, FakeBackend, fakeUi } from './fakeChatBackend';
import { flatten, FLUSH_DELAY_MS, setup, tick, useFakeClock } from './chatControllerSetup';

describe('ChatController: routing webview actions', () => {
  useFakeClock();
  it('routes permission, elicitation, pickers, history, editor actions and mentions', async () => {
    const { backend, ctl, posted, uiLog } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    ctl.handleMessage({ type: 'permissionAnswer', sessionId: 's1', requestId: '0', answer: { optionId: 'allow' } });
    ctl.handleMessage({ type: 'permissionAnswer', sessionId: 's1', requestId: '1', answer: { cancelled: true } });
    ctl.handleMessage({ type: 'elicitationAnswer', sessionId: 's1', requestId: 'e', answer: { action: 'decline' } });
    ctl.handleMessage({ type: 'setMode', sessionId: 's1', modeId: 'plan' });
    ctl.handleMessage({ type: 'setModel', sessionId: 's1', modelId: 'm' });
    ctl.handleMessage({ type: 'setConfigOption', sessionId: 's1', configId: 'c', value: true });
    ctl.handleMessage({ type: 'restartAgent', agentId: 'A' });
    ctl.handleMessage({ type: 'authenticate', agentId: 'A', methodId: 'login' });
    ctl.handleMessage({ type: 'openHistory', historyId: 'h', mode: 'resume' });
    ctl.handleMessage({ type: 'openDiff', sessionId: 's1', toolCallId: 'tc', path: '/a' });
    ctl.handleMessage({ type: 'openTerminal', sessionId: 's1', terminalId: 'term_1' });
    ctl.handleMessage({ type: 'copyCode', code: 'x' });
    ctl.handleMessage({ type: 'openLink', href: 'https://example.com' });
    ctl.handleMessage({ type: 'mentionQuery', requestId: 7, query: 'ap' });
    await tick();
    assert.deepEqual(backend.calls, [
      ['answerPermission', '0', { optionId: 'allow' }],
      ['answerPermission', '1', { cancelled: true }],
      ['answerElicitation', 'e', { action: 'decline' }],
      ['setMode', 's1', 'plan'],
      ['setModel', 's1', 'm'],
      ['setConfigOption', 's1', 'c', true],
      ['restartAgent', 'A'],
      ['authenticate', 'A', 'login'],
      ['openHistory', 'h', 'resume'],
      ['openDiff', 's1', 'tc', '/a'],
      ['openTerminal', 's1', 'term_1'],
    ]);
    assert.ok(uiLog.includes('copy:x'));
    assert.ok(uiLog.includes('link:https://example.com'));
    assert.ok(flatten(posted).some((m) => m.type === 'mentionResults' && m.requestId === 7 && m.candidates[0].label === 'a-ap.ts'));
  });
});

describe("ChatController: the host's own features (HostActions)", () => {
  useFakeClock();
  it("opens a chip with lines, a kind or text of its own through openMention; a bare chip, a link or a refused scheme in the editor", async () => {
    const { ctl, uiLog, actionLog } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    const selection = { uri: 'file:///ws/a.ts', kind: 'selection', range: { startLine: 3, endLine: 5 } };
    const problem = { uri: 'file:///ws/a.ts#L7', text: 'Error at a.ts:7', mimeType: 'text/plain' };
    const terminal = { uri: 'switchboard://terminal/bash', kind: 'terminal', text: '$ ls' };
    for (const chip of [selection, problem, terminal]) ctl.handleMessage({ type: 'openResource', ...chip });
    for (const uri of ['file:///ws/b.ts', 'https://example.com/#top', 'COMMAND:workbench.action.quit', 'data:text/plain,x']) {
      ctl.handleMessage({ type: 'openResource', uri, text: 'carried' });
    }
    ctl.handleMessage({ type: 'openResource', uri: 'file:///ws/c.ts' });
    await tick();
    assert.deepEqual(actionLog, [['openMention', selection], ['openMention', problem], ['openMention', terminal], ['openMention', { uri: 'file:///ws/b.ts', text: 'carried' }]]);
    assert.deepEqual(
      uiLog.filter((l) => l.startsWith('res:')),
      ['res:https://example.com/#top', 'res:COMMAND:workbench.action.quit', 'res:data:text/plain,x', 'res:file:///ws/c.ts'],
      'links go to the editor (which opens only http(s)/mailto through VS Code and refuses the rest)',
    );
  });

  it('shows the protocol log and the ACP Registry list through HostActions', async () => {
    const { ctl, actionLog } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    ctl.handleMessage({ type: 'showProtocolLog' });
    ctl.handleMessage({ type: 'addAgentFromRegistry' });
    await tick();
    assert.deepEqual(actionLog, [['showProtocolLog'], ['addAgentFromRegistry']]);
  });

  it('reports a chip that could not be opened (logged and shown), and keeps working', async () => {
    const backend = new FakeBackend();
    const uiLog: string[] = [];
    const actions = { ...fakeActions(), openMention: async () => { throw new Error('the file is gone'); } };
    const ctl = new ChatController(backend, fakeUi(uiLog), actions, { flushDelayMs: FLUSH_DELAY_MS });
    ctl.handleMessage({ type: 'openResource', uri: 'file:///ws/gone.ts', kind: 'file', range: { startLine: 1, endLine: 1 } });
    ctl.handleMessage({ type: 'openResource', uri: 'file:///ws/here.ts' });
    await tick();
    assert.ok(uiLog.some((l) => l.startsWith('error:') && l.includes('the file is gone')), uiLog.join('\n'));
    assert.ok(uiLog.includes('res:file:///ws/here.ts'));
    ctl.dispose();
  });
});
