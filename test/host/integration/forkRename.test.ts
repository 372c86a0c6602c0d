// Fork (unstable session/fork) and rename (session/set_title, else a local title) through the real
// SessionBackend with the fake agent: the fork opens as a new tab, "Fork from here" shows the transcript up
// to that message's turn, a fork the agent refuses keeps the original tab with its error, and titles are
// checked, stored and kept in the local transcript store.
import * as assert from 'assert';
import { prompt, textOf, transcriptOf, withFakeAgents } from './helpers';

describe('fork and rename', function () {
  this.timeout(90_000);
  const context = withFakeAgents({ Forker: [], Plain: ['--minimal-caps'] });

  const viewOf = (id: string) => context.sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)!.view;
  const messages = (id: string) => transcriptOf(context.sb, id).items.filter((i) => i.kind === 'user_message' || i.kind === 'agent_message').map(textOf);

  it('forks the whole session, or from a message (the tab cut after its turn), as a new active tab', async () => {
    const id = await context.sb.backend.lifecycle.open('Forker');
    assert.strictEqual(viewOf(id).capabilities.fork, true, 'offered: the agent advertises sessionCapabilities.fork');
    await context.sb.backend.sessions.require(id).prompt(prompt('first'));
    await context.sb.backend.sessions.require(id).prompt(prompt('second'));

    const whole = await context.sb.backend.lifecycle.fork(id);
    assert.ok(whole && whole !== id);
    assert.strictEqual(context.sb.backend.sessions.activeTabId(), whole);
    assert.deepStrictEqual(messages(whole), ['first', 'echo: first', 'second', 'echo: second']);
    assert.strictEqual(viewOf(whole).title, 'Fork of first');

    const firstMessage = transcriptOf(context.sb, id).items.find((i) => i.kind === 'user_message')!;
    const partial = (await context.sb.backend.lifecycle.fork(id, firstMessage.id))!;
    assert.deepStrictEqual(messages(partial), ['first', 'echo: first']);
    const notice = transcriptOf(context.sb, partial).items.find((i) => i.kind === 'notice');
    assert.ok(notice && notice.kind === 'notice' && /forks whole sessions only/.test(notice.description ?? ''), 'the fork says the agent still remembers the rest');
    // The fork is a live session of its own.
    await context.sb.backend.sessions.require(partial).prompt(prompt('third'));
    assert.deepStrictEqual(messages(partial).slice(-1), ['echo: third']);
    assert.deepStrictEqual(messages(id), ['first', 'echo: first', 'second', 'echo: second'], 'the original is untouched');
  });

  it('a fork of a session the agent no longer has (-32002) keeps the original tab and says why in its banner', async () => {
    const id = await context.sb.backend.lifecycle.open('Forker');
    await context.sb.backend.sessions.require(id).prompt(prompt('forget'));
    const before = context.sb.backend.sessions.snapshots().length;
    assert.strictEqual(await context.sb.backend.lifecycle.fork(id), undefined);
    assert.strictEqual(context.sb.backend.sessions.snapshots().length, before, 'no new tab');
    assert.strictEqual(context.sb.backend.sessions.activeTabId(), id);
    assert.match(viewOf(id).error?.message ?? '', /Could not fork the session\. Forker no longer has this session\./);
  });

  it('does not offer fork when the agent does not advertise it', async () => {
    const id = await context.sb.backend.lifecycle.open('Plain');
    assert.strictEqual(viewOf(id).capabilities.fork, false);
    assert.strictEqual(viewOf(id).capabilities.title, false);
  });

  it('renames with session/set_title or locally; empty and huge titles are refused clearly; the title is stored', async () => {
    const id = await context.sb.backend.lifecycle.open('Forker');
    await context.sb.backend.sessions.require(id).prompt(prompt('rename me'));
    await context.sb.backend.lifecycle.rename(id, '   Parser   work  ');
    assert.strictEqual(viewOf(id).title, 'Parser work');
    await context.sb.backend.lifecycle.rename(id, '   ');
    assert.strictEqual(viewOf(id).error?.message, 'A session title cannot be empty.');
    assert.strictEqual(viewOf(id).title, 'Parser work');
    await context.sb.backend.lifecycle.rename(id, 'x'.repeat(5000));
    assert.match(viewOf(id).error?.message ?? '', /at most 200 characters; this one has 5000/);
    assert.strictEqual(viewOf(id).title, 'Parser work');

    // An agent without session/set_title: the title is local.
    const plain = await context.sb.backend.lifecycle.open('Plain');
    await context.sb.backend.sessions.require(plain).prompt(prompt('local title'));
    await context.sb.backend.lifecycle.rename(plain, 'Kept here');
    assert.strictEqual(viewOf(plain).title, 'Kept here');

    // Both titles are in the local transcript store (what a window reload restores tabs from).
    await context.sb.backend.lifecycle.close(id);
    await context.sb.backend.lifecycle.close(plain);
    const titles = context.sb.backend.history.list().filter((h) => h.source === 'local').map((h) => h.title);
    assert.ok(titles.includes('Parser work') && titles.includes('Kept here'), titles.join(', '));
    const entry = context.sb.backend.history.list().find((h) => h.source === 'local' && h.title === 'Kept here')!;
    await context.sb.backend.lifecycle.openHistory(entry.id, 'load');
    assert.ok(context.sb.backend.sessions.snapshots().some((s) => s.view.title === 'Kept here'), 'the reopened tab keeps its title');
  });
});
