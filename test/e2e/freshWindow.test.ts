// Each workbench a test opens starts as a new window of a new browser would: what an earlier workbench stored
// in the browser (its open tabs and sessions, the workbench's state, granted permissions) is gone, though
// the run reuses one browser page for all of them (helpers/workbench.ts).
import * as assert from 'assert';
import { configureAgents, DEMO_AGENT, newSession, openChat, selectAgent, sendMessage, tabs, until } from './helpers/chat';
import { persistedOpenTabs } from './helpers/realAgents';
import { closeWorkbench, e2eEnv, openWorkbench, type Workbench } from './helpers/workbench';
import { persistedWorkspaceState } from './helpers/stored';

describe('A workbench opened after another one closed', function () {
  this.timeout(300_000);
  let wb: Workbench | undefined;

  afterEach(async () => {
    await closeWorkbench(wb);
    wb = undefined;
  });

  it('shows none of the tabs, sessions or permissions the one before it stored', async () => {
    configureAgents(DEMO_AGENT);
    const mark = `explain fresh-window-${Date.now()}`;
    wb = await openWorkbench();
    let chat = await openChat(wb.page);
    await selectAgent(chat, DEMO_AGENT);
    await newSession(chat);
    await sendMessage(chat, mark, { waitForEnd: true });
    const page = wb.page;
    await until(async () => ((await persistedOpenTabs(page)) ?? []).length > 0, 'the open tab to be stored', 30_000);
    await page.context().grantPermissions(['clipboard-read'], { origin: new URL(e2eEnv().url).origin });
    await closeWorkbench(wb);

    wb = await openWorkbench();
    chat = await openChat(wb.page);
    await selectAgent(chat, DEMO_AGENT);
    const stored = JSON.stringify((await persistedWorkspaceState(wb.page)) ?? {});
    assert.ok(!stored.includes('fresh-window-'), `the new window's workspace state holds the last one's session: ${stored.slice(0, 500)}`);
    assert.strictEqual(await tabs(chat).filter({ hasText: 'fresh-window-' }).count(), 0, "the last window's tab is not open");
    const clipboard = await wb.page.evaluate(async () => (await navigator.permissions.query({ name: 'clipboard-read' as PermissionName })).state);
    assert.notStrictEqual(clipboard, 'granted', 'the permission granted to the last window');
  });
});
