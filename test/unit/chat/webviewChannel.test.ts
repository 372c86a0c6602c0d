// The host's end of the chat webview's handshake: an `init` the webview did not take (postMessage resolving
// false, rejecting or throwing) is logged, nothing more goes out until the webview's next `ready`, and that
// `ready` gets a whole new `init` with what must arrive queued behind it. A repeated `ready` is answered
// again, each time with the snapshot of now.
import * as assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../../src/shared/messages';
import { WebviewChannel } from '../../../src/chat/surfaces/webviewChannel';
import { FLUSH_DELAY_MS, tick, useFakeClock } from './tick';


function init(n: number): HostToWebviewMessage {
  return { type: 'init', protocolVersion: 2, snapshot: { agents: [], defaultAgentId: `agent ${n}`, sessions: [], history: [], terminals: [] } };
}

/** A channel over a port whose answers the test scripts (true when none is scripted). */
function setup(answers: Array<boolean | Error | 'throw'> = []) {
  const warnings: string[] = [];
  const posted: HostToWebviewMessage[] = [];
  let changes: HostToWebviewMessage[] = [];
  const channel = new WebviewChannel({ flushDelayMs: FLUSH_DELAY_MS, collect: () => changes.splice(0), warn: (m) => warnings.push(m) });
  channel.attach({
    postMessage: (m) => {
      posted.push(m);
      const a = answers.shift() ?? true;
      if (a === 'throw') throw new Error('webview is disposed');
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    },
  });
  const change = (m: HostToWebviewMessage) => {
    changes = [...changes, m];
    channel.schedule();
  };
  return { channel, posted, warnings, change };
}

describe('WebviewChannel: the ready handshake', () => {
  useFakeClock();
  it('an init the webview did not take is logged; nothing follows until the next ready, which gets a new init and the queued notice', async () => {
    const { channel, posted, warnings, change } = setup([false]);
    channel.open(init(1));
    await tick();
    assert.equal(channel.isReady, false, 'not ready after a lost init');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /did not take its init \(postMessage resolved false\)/);
    change({ type: 'activeSession', sessionId: 's1' });
    channel.post({ type: 'toast', message: 'kept for later' });
    channel.reply({ type: 'toast', message: 'only for a live view' });
    await tick();
    assert.deepEqual(posted.map((m) => m.type), ['init'], 'nothing after the lost init');
    channel.open(init(2));
    await tick();
    assert.equal(channel.isReady, true);
    assert.deepEqual(posted.slice(1), [init(2), { type: 'toast', message: 'kept for later' }]);
    assert.equal(warnings.length, 1, 'a delivered init logs nothing');
  });

  it('a rejected or throwing postMessage of the init is logged once with the reason', async () => {
    for (const answer of [new Error('channel closed'), 'throw' as const]) {
      const { channel, warnings } = setup([answer]);
      channel.open(init(1));
      await tick();
      assert.equal(channel.isReady, false);
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0], /did not take its init \(Error: (channel closed|webview is disposed)\)/);
    }
  });

  it('a repeated ready is answered again with the snapshot of now; changes then flow', async () => {
    const { channel, posted, warnings, change } = setup();
    channel.open(init(1));
    channel.open(init(2));
    change({ type: 'activeSession', sessionId: 's1' });
    await tick();
    assert.deepEqual(posted, [init(1), init(2), { type: 'activeSession', sessionId: 's1' }]);
    assert.deepEqual(warnings, []);
  });

  it('a lost batch waits for the webview to speak again, logged once (not as a lost init)', async () => {
    const { channel, posted, warnings, change } = setup([true, false]);
    channel.open(init(1));
    change({ type: 'activeSession', sessionId: 's1' });
    await tick();
    assert.equal(channel.isReady, false);
    change({ type: 'activeSession', sessionId: 's2' });
    await tick();
    assert.equal(posted.length, 2);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /the "activeSession" message did not reach the webview/);
  });
});
