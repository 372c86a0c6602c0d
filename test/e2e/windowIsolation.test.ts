// Every describe's workbench starts on empty browser storage, although the run's windows share one
// browser profile (for its code cache): no workbench state (the open view container, local storage) and
// no extension Mementos (the open session tabs, the History) carry over from the window before.
import * as assert from 'assert';
import { configureAgents, FAKE_AGENT, newSession, openChat, selectAgent, sendMessage, tabs, until } from './helpers/chat';
import { activityBarItem, closeWorkbench, openWorkbench, persistedWorkspaceState, reportFailure, type Workbench } from './helpers/workbench';

const MARKER = 'switchboard-e2e-isolation';
/** Keys of the extension's workspace Memento (src/host/session/tabs/transcriptStore.ts). */
const HISTORY = 'switchboard.history.v1';
const FOLDER = 'switchboard.transcriptFolder.v1';

describe('Workbench windows: each starts on empty browser storage', function () {
  this.timeout(180_000);
  let wb: Workbench | undefined;

  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') await reportFailure(wb.page, `window-isolation-${this.currentTest.title}`);
    await closeWorkbench(wb);
    wb = undefined;
  });

  it('a window opened after one that stored a session, the open view and local storage sees none of them', async () => {
    configureAgents(FAKE_AGENT);
    wb = await openWorkbench();
    const chat = await openChat(wb.page);
    await selectAgent(chat, FAKE_AGENT);
    await newSession(chat);
    await sendMessage(chat, 'kept in the first window', { waitForEnd: true });
    const page = wb.page;
    await page.evaluate((key) => localStorage.setItem(key, 'left by the first window'), MARKER);
    // The Mementos reach IndexedDB a moment after the extension's update: the History with the session,
    // and the transcripts folder the extension names once per workspace (a random UUID).
    const firstFolder = await until(async () => {
      const state = await persistedWorkspaceState(page);
      const history = state?.[HISTORY];
      const folder = state?.[FOLDER];
      return Array.isArray(history) && history.length > 0 && typeof folder === 'string' ? folder : '';
    }, 'the session and the transcripts folder to be stored', 60_000);
    await closeWorkbench(wb);

    wb = await openWorkbench();
    // Leaked state would be in IndexedDB from the page's start; a fresh one gets a new folder name.
    const state = await persistedWorkspaceState(wb.page);
    assert.strictEqual(state?.[HISTORY], undefined, `the History of the first window: ${JSON.stringify(state)}`);
    assert.notStrictEqual(state?.[FOLDER], firstFolder, `the transcripts folder of the first window: ${JSON.stringify(state)}`);
    assert.strictEqual(await wb.page.evaluate((key) => localStorage.getItem(key), MARKER), null, 'local storage of the first window');
    assert.notStrictEqual(
      await activityBarItem(wb.page, 'Switchboard').getAttribute('aria-selected'),
      'true',
      'the view container the first window had open was restored',
    );
    assert.strictEqual(await tabs(await openChat(wb.page)).count(), 0, 'session tabs restored from the first window');
  });
});
