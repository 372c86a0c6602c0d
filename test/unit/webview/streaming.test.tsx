// Streaming into the transcript: appendText ops grow a message, append/replace ops add and update items,
// a long code block streams into one element, and a gap in the ops sequence or an op that does not apply asks
// the host to resync.
import './setupDom';
import * as assert from 'node:assert/strict';
import { click, getByRole, mount, snapshot } from './helpers';

describe('webview: streaming', () => {
  it('applies appendText deltas to the right message, and a new item appends', () => {
    const h = mount(snapshot([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'Hel' }] }], { turn: 'running' }));
    for (const chunk of ['lo', ' wor', 'ld', '\n\nSecond ', 'paragraph']) {
      h.sendOps('s1', [{ op: 'appendText', index: 0, id: 'a1', contentIndex: 0, text: chunk }]);
    }
    const msg = h.root.querySelector('.message.agent')!;
    assert.deepEqual(Array.from(msg.querySelectorAll('p')).map((p) => p.textContent), ['Hello world', 'Second paragraph']);
    h.sendOps('s1', [{ op: 'append', item: { kind: 'tool_call', id: 't9', toolCallId: 'x', title: 'Read file', toolKind: 'read', status: 'pending', content: [], locations: [] } }]);
    getByRole(h.root, 'group', 'Read file');
    // Replacing the tool call updates the status.
    h.sendOps('s1', [{ op: 'replace', index: 1, id: 't9', item: { kind: 'tool_call', id: 't9', toolCallId: 'x', title: 'Read file', toolKind: 'read', status: 'failed', content: [], locations: [] } }]);
    assert.match(getByRole(h.root, 'group', 'Read file').textContent!, /Failed/);
    h.unmount();
  });

  it('a long code block streams into one code element; its buttons act on the whole code, HTML in it stays text', () => {
    const h = mount(snapshot([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: '```py\n' }] }], { turn: 'running' }));
    let code = '';
    for (let i = 0; i < 600; i++) {
      const line = `print("<img src=x onerror=alert(${i})>", ${i})\n`;
      code += line;
      h.sendOps('s1', [{ op: 'appendText', index: 0, id: 'a1', contentIndex: 0, text: line }]);
    }
    const msg = h.root.querySelector('.message.agent')!;
    const codeEl = () => msg.querySelectorAll('pre code');
    assert.equal(codeEl().length, 1);
    const streamingCode = codeEl()[0];
    assert.equal(streamingCode.textContent, code);
    assert.equal(msg.querySelectorAll('img').length, 0);
    click(getByRole(msg, 'button', 'Copy code'));
    assert.deepEqual(h.last('copyCode'), { type: 'copyCode', code });
    h.sendOps('s1', [{ op: 'appendText', index: 0, id: 'a1', contentIndex: 0, text: '```\n\nDone.' }]);
    assert.equal(codeEl()[0], streamingCode, 'closing the fence does not re-mount the long block');
    click(getByRole(msg, 'button', 'Open code in editor'));
    assert.deepEqual(h.last('openCode'), { type: 'openCode', code, language: 'py' });
    assert.match(msg.textContent!, /Done\./);
    h.unmount();
  });

  it('asks the host to resync when an ops message is missing from the sequence', () => {
    const h = mount(snapshot([]));
    h.send({ type: 'transcriptOps', sessionId: 's1', seq: 2, ops: [] });
    assert.match(h.last('resync')?.reason ?? '', /expected 1/);
    h.unmount();
  });

  it('asks the host to resync when an op does not apply', () => {
    const h = mount(snapshot([]));
    h.sendOps('s1', [{ op: 'appendText', index: 5, id: 'nope', contentIndex: 0, text: 'x' }]);
    assert.equal(h.last('resync')?.type, 'resync');
    h.unmount();
  });
});
