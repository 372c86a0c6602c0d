// The webview asks for the host's state until it has it: a host that drops the first `init` (or never got
// the first `ready`) still gets the chat out of "Connecting…"; the asking backs off and stops at `init`.
// A second `init` (a repeated `ready` answered twice) keeps what the user has in the webview: the draft,
// the open find bar and its query.
import './setupDom';
import * as assert from 'node:assert/strict';
import { ReadyHandshake } from '../../../webview-ui/src/readyHandshake';
import { getByRole, keydown, mount, queryAllByRole, snapshot, typeInto, type Harness } from './helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const readies = (h: Harness) => h.posted.filter((m) => m.type === 'ready').length;

describe('webview: the ready handshake', () => {
  let h: Harness | undefined;
  afterEach(() => {
    h?.unmount();
    h = undefined;
  });

  it('a host that drops the first init: the webview asks again and leaves "Connecting…" with the second', async () => {
    h = mount();
    assert.equal(readies(h), 1);
    assert.match(h.root.textContent ?? '', /Connecting/);
    // The host's first init never arrives; the webview asks again after 2 s.
    await until(() => readies(h!) === 2, 'a second ready');
    assert.deepEqual(h.posted.filter((m) => m.type === 'ready'), [{ type: 'ready', protocolVersion: 2 }, { type: 'ready', protocolVersion: 2, attempt: 2 }]);
    h.send({ type: 'init', protocolVersion: 2, snapshot: snapshot([], { agentId: 'Fake Agent', title: 'First chat' }) });
    h.settle();
    assert.doesNotMatch(h.root.textContent ?? '', /Connecting/);
    assert.ok(getByRole(h.root, 'combobox', 'Agent'));
  });

  it('backs off between asks and stops once init arrived', async () => {
    const sent: number[] = [];
    const attempts: number[] = [];
    const start = Date.now();
    const handshake = new ReadyHandshake((attempt) => (attempts.push(attempt), sent.push(Date.now() - start)), [40, 80, 160]);
    handshake.start();
    await until(() => sent.length === 4, 'four asks', 5000);
    assert.deepEqual(attempts, [1, 2, 3, 4]);
    const gaps = sent.slice(1).map((t, i) => t - sent[i]);
    assert.ok(gaps[0] >= 35 && gaps[1] >= 75 && gaps[2] >= 155, `backing off: ${gaps.join(', ')} ms`);
    handshake.initReceived();
    await sleep(400);
    assert.equal(sent.length, 4, 'no ask after init');
  });

  it('a second init keeps the draft, the open find bar and its query', () => {
    h = mount(snapshot([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'the needle is here' }] }]));
    const box = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    typeInto(box, 'half a thought');
    keydown(box, 'f', { ctrlKey: true });
    const find = getByRole(h.root, 'searchbox', 'Find in session') as HTMLInputElement;
    typeInto(find, 'needle');
    assert.match(h.root.querySelector('.find-count')?.textContent ?? '', /1 of 1/);
    h.send({ type: 'init', protocolVersion: 2, snapshot: snapshot([{ kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'the needle is here' }] }]) });
    h.settle();
    assert.equal((getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement).value, 'half a thought');
    assert.equal(queryAllByRole(h.root, 'searchbox', 'Find in session').length, 1, 'the find bar stays open');
    assert.equal((getByRole(h.root, 'searchbox', 'Find in session') as HTMLInputElement).value, 'needle');
    assert.match(h.root.querySelector('.find-count')?.textContent ?? '', /1 of 1/);
  });
});
