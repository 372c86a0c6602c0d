// `switchboard.notifications` through the real extension with the fake agent: what the attention code
// notifies and counts on the chat view's badge for each value. `off`: no notification, the badge still
// counts; `always`: a notification also while the user watches the session; `whenHidden`: none while
// watched, one when not. One notification per wait, and it goes away when the wait is answered in the chat.
// The notifications are VS Code's own (progress notifications, so they can be closed): they are recorded
// as the extension hands them to VS Code, which still shows them; so is the badge it sets on the view.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { setSettings, waitFor } from '../index';
import { prompt, transcriptOf, withFakeAgents } from './helpers';

const AGENT = 'Notifications agent (host test)';
const SHOW = 'switchboard.attention.show';

interface Shown {
  title: string;
  closed: boolean;
}

/** Every notification VS Code is asked to show from now on, and whether it closed. */
function recordNotifications(): { shown: Shown[]; dispose(): void } {
  const window = vscode.window as { withProgress: typeof vscode.window.withProgress };
  const original = window.withProgress;
  const shown: Shown[] = [];
  const recording = (<R>(options: vscode.ProgressOptions, task: Parameters<typeof original<R>>[1]): Thenable<R> => {
    if (options.location !== vscode.ProgressLocation.Notification) return original(options, task);
    const entry: Shown = { title: options.title ?? '', closed: false };
    shown.push(entry);
    return original(options, (progress, token) => {
      const run = task(progress, token);
      void Promise.resolve(run).finally(() => (entry.closed = true));
      return run;
    });
  }) as typeof original;
  window.withProgress = recording;
  return { shown, dispose: () => void (window.withProgress = original) };
}

describe('switchboard.notifications: off, always, whenHidden', function () {
  this.timeout(180_000);
  // --steering: a steer can make the agent start a turn of its own (its end is notified as any turn's).
  const ctx = withFakeAgents({ [AGENT]: ['--steering'] });
  const backend = () => ctx.sb.backend;
  const viewOf = (id: string) => backend().sessions.snapshots().find((s) => s.view.sessionId === id)?.view;
  let recorder: ReturnType<typeof recordNotifications>;
  /** The badge values the attention code set on the chat view, in order (undefined: none). */
  const badges: (number | undefined)[] = [];
  let restoreSetting: (() => Promise<void>) | undefined;

  /** The notifications of a session (its "Show" link names it). */
  const noticesOf = (id: string, what: RegExp) =>
    recorder.shown.filter((n) => n.title.includes(encodeURIComponent(JSON.stringify([id]))) && what.test(n.title));
  const badge = () => badges.at(-1) ?? 0;

  before(async () => {
    recorder = recordNotifications();
    const setBadge = ctx.sb.chat.setBadge.bind(ctx.sb.chat);
    ctx.sb.chat.setBadge = (b) => {
      badges.push(b?.value);
      setBadge(b);
    };
    // The attention code loads with the first session.
    await backend().lifecycle.open(AGENT);
    await waitFor(async () => (await vscode.commands.getCommands(true)).includes(SHOW), 'the attention code', 30_000);
  });

  after(async () => {
    recorder.dispose();
    delete (ctx.sb.chat as { setBadge?: unknown }).setBadge;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
  });

  afterEach(async () => {
    for (const s of backend().sessions.snapshots()) await backend().lifecycle.close(s.view.sessionId);
    await restoreSetting?.();
    restoreSetting = undefined;
  });

  const notifications = async (value: 'off' | 'always' | 'whenHidden') => {
    restoreSetting = await setSettings({ 'switchboard.notifications': value });
  };

  /** The user looks at this session: the window focused, the chat on screen, the session its tab. */
  async function watch(id: string): Promise<void> {
    await vscode.commands.executeCommand('switchboard.chat.focus');
    backend().sessions.select(id);
    await waitFor(() => ctx.sb.chat.isVisible && backend().sessions.activeTabId() === id, 'the chat to show the session', 30_000);
    assert.ok(vscode.window.state.focused, 'the workbench window has the focus (the test host keeps it focused)');
  }

  async function hideChat(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await waitFor(() => !ctx.sb.chat.isVisible, 'the chat to be hidden', 30_000);
  }

  /** Sends `permission` and waits until its request is pending; returns the request. */
  async function permissionWaits(id: string): Promise<{ sent: Thenable<unknown>; requestId: string }> {
    const sent = backend().sessions.require(id).prompt(prompt('permission'));
    const requestId = await waitFor(() => viewOf(id)?.permissions[0]?.requestId, 'the permission request', 60_000);
    return { sent, requestId };
  }

  /** Answers the request on its card in the chat. */
  const allow = (id: string, requestId: string) =>
    ctx.sb.chat.controller.handleMessage({ type: 'permissionAnswer', sessionId: id, requestId, answer: { optionId: 'allow' } });

  it('off: no notification for a turn that ends or a permission that waits while hidden; the badge still counts them', async () => {
    await notifications('off');
    await hideChat();
    const ended = await backend().lifecycle.open(AGENT);
    const before = badge();
    await backend().sessions.require(ended).prompt(prompt('ends while the chat is hidden'));
    await waitFor(() => badge() === before + 1, 'the badge to count the ended turn', 30_000);

    const asking = await backend().lifecycle.open(AGENT);
    const { sent, requestId } = await permissionWaits(asking);
    await waitFor(() => badge() === before + 2, 'the badge to count the permission request', 30_000);
    allow(asking, requestId);
    await sent;
    assert.deepStrictEqual([...noticesOf(ended, /./), ...noticesOf(asking, /./)].map((n) => n.title), [], 'no notification at all');
  });

  it('always: a notification while you watch the session, one per wait; a permission answered in the chat closes its notification', async () => {
    await notifications('always');
    const id = await backend().lifecycle.open(AGENT);
    await watch(id);
    const before = badge();
    await backend().sessions.require(id).prompt(prompt('ends while watched'));
    await waitFor(() => noticesOf(id, /finished/).length === 1, 'the notification of the turn end', 30_000);
    assert.strictEqual(badge(), before, 'a session you watch is not counted as waiting');

    const { sent, requestId } = await permissionWaits(id);
    await waitFor(() => noticesOf(id, /asks for your permission/).length === 1, 'the notification of the permission request', 30_000);
    allow(id, requestId);
    await waitFor(() => noticesOf(id, /asks for your permission/)[0]?.closed, 'the notification to close once answered in the chat', 30_000);
    await sent;
    await waitFor(() => noticesOf(id, /finished/).length === 2, 'the second turn end notified too', 30_000);
    assert.strictEqual(noticesOf(id, /asks for your permission/).length, 1, 'one notification for the one request');
    assert.strictEqual(recorder.shown.filter((n) => n.title.includes(encodeURIComponent(JSON.stringify([id])))).length, 3, 'nothing else');
  });

  it('whenHidden: nothing for the session you watch; one notification for another session, closed when answered in the chat', async () => {
    await notifications('whenHidden');
    const watched = await backend().lifecycle.open(AGENT);
    const other = await backend().lifecycle.open(AGENT);
    await watch(watched);
    await backend().sessions.require(watched).prompt(prompt('ends while watched'));
    // The other session's turn ends after: once it is notified, the watched one's end was decided too.
    await backend().sessions.require(other).prompt(prompt('ends in a tab not shown'));
    await waitFor(() => noticesOf(other, /finished/).length === 1, 'the notification of the other session', 30_000);
    assert.deepStrictEqual(noticesOf(watched, /./).map((n) => n.title), [], 'no notification for the session watched');

    const { sent, requestId } = await permissionWaits(other);
    await waitFor(() => noticesOf(other, /asks for your permission/).length === 1, 'the notification of the permission request', 30_000);
    assert.ok(noticesOf(other, /finished/)[0]?.closed, 'the earlier turn end is replaced, not stacked');
    allow(other, requestId);
    await waitFor(() => noticesOf(other, /asks for your permission/)[0]?.closed, 'the notification to close once answered in the chat', 30_000);
    await sent;
    await waitFor(() => noticesOf(other, /finished/).length === 2, 'the end of the answered turn notified', 30_000);
    assert.strictEqual(noticesOf(other, /asks for your permission/).length, 1, 'one notification for the one request');
  });

  it("whenHidden: the end of a turn the agent started itself (a steer answered startedNewTurn) is notified as any turn's end", async () => {
    await notifications('whenHidden');
    await hideChat();
    const id = await backend().lifecycle.open(AGENT);
    const ours = backend().sessions.require(id).prompt(prompt('steerable'));
    const spoke = () => transcriptOf(ctx.sb, id).items.some((i) => i.kind === 'agent_message');
    await waitFor(() => viewOf(id)?.turn === 'running' && spoke(), 'our turn to run and the agent to speak', 30_000);
    ctx.sb.chat.controller.handleMessage({ type: 'steer', sessionId: id, prompt: prompt('new-turn of its own') });
    await ours;
    await waitFor(() => noticesOf(id, /finished/).length === 1, "the end of our turn notified", 30_000);
    // It takes a steer once it has spoken (the fake agent's own turn waits for one from then on).
    const ownTurnSpoke = () => transcriptOf(ctx.sb, id).items.some((i) => i.kind === 'agent_message' && JSON.stringify(i.content).includes('new turn:'));
    await waitFor(() => viewOf(id)?.turn === 'running' && ownTurnSpoke(), "the agent's own turn to run and speak", 30_000);
    ctx.sb.chat.controller.handleMessage({ type: 'steer', sessionId: id, prompt: prompt('wrap it up') });
    await waitFor(() => noticesOf(id, /finished/).length === 2, "the end of the agent's own turn notified too", 30_000).catch((e: Error) => {
      throw new Error(`${e.message} (turn ${viewOf(id)?.turn}, chat visible ${ctx.sb.chat.isVisible}): ${JSON.stringify(transcriptOf(ctx.sb, id).items.slice(-6))}`);
    });
    assert.strictEqual(viewOf(id)?.turn, 'idle');
  });
});
