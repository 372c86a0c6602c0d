// The session actions of the chat's header and tabs, clicked through in the real workbench with the fake
// agent (test/fixtures/agents/fake-agent.mjs: it forks, sets titles and says who is signed in): "Fork
// session" opens a new tab with the transcript; "Fork from here" on the first message opens one with only
// the first turn; "Rename session" and a double-click on a tab rename it, and the title survives a reload
// of the workbench and shows in a second window of the workspace; an empty or a 201-character title is
// refused where it is typed and the old title stays; "Sign out" in the header's account display leaves it
// saying "Not signed in".
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { button, FAKE_AGENT, openChat, sendMessage, tabs, transcript, until } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { e2eEnv, screenshot } from './helpers/workbench';
import { persistedWorkspaceState } from './helpers/stored';

const RENAMED = 'Parser work';
const RENAMED_FROM_TAB = 'Lexer work';
const BEFORE_RELOAD = 'Before the reload';
const KEPT_ACROSS_RELOAD = 'Kept across a reload';
const SHOWN_IN_SECOND_WINDOW = 'Shown in a second window';

describe('Session actions in the chat: fork, rename, sign out', function () {
  this.timeout(180_000);
  const cw = useChatWorkbench({ name: 'session-actions', agent: FAKE_AGENT, newSession: true });
  /** Tab count once the session of these tests is open. */
  let firstTabs = 0;

  const selectedTab = (): Locator => cw.chat.getByRole('tab', { selected: true });
  const header = (): Locator => cw.chat.locator('.session-header');
  const titleBox = (): Locator => cw.chat.getByRole('textbox', { name: 'Session title', exact: true });
  const selectedTitle = async (): Promise<string> => (await selectedTab().innerText()).trim();
  /** What the visible transcript shows: "you: …" and "agent: …" for each message, in order. */
  const conversation = async (): Promise<string[]> =>
    transcript(cw.chat)
      .locator('.message')
      .evaluateAll((els) =>
        els.map((el) => {
          const author = el.querySelector('.message-author')?.textContent ?? '';
          return `${el.classList.contains('user') ? 'you' : 'agent'}: ${(el.textContent ?? '').slice(author.length).trim()}`;
        }),
      );
  const tabTitled = (title: string): Locator => tabs(cw.chat).filter({ hasText: new RegExp(`^\\s*${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) });

  /** Selects the tab titled `title` (the session's tabs keep their order). */
  async function selectTab(title: string): Promise<void> {
    await tabTitled(title).first().click();
    await until(async () => (await selectedTitle()) === title, `the tab "${title}" to be selected`, 30_000);
  }

  /**
   * Waits until the browser's storage holds the session titled `title` and every open tab: the workspace
   * state gets there a moment after the rename (and the open tabs a moment after they open).
   */
  async function untilStored(title: string): Promise<void> {
    const shown = await tabs(cw.chat).count();
    await until(async () => {
      const state = await persistedWorkspaceState(cw.page);
      const index = state?.['switchboard.history.v1'];
      const open = (state?.['switchboard.openTabs.v1'] as { keys?: unknown } | undefined)?.keys;
      return Array.isArray(index) && index.some((m: { title?: unknown }) => m.title === title) && Array.isArray(open) && open.length === shown;
    }, 'the renamed session and the open tabs to be stored', 60_000);
  }

  before(async () => {
    await sendMessage(cw.chat, 'first', { waitForEnd: true });
    await sendMessage(cw.chat, 'second', { waitForEnd: true });
    await until(async () => (await conversation()).length === 4, 'both turns in the transcript', 30_000);
    firstTabs = await tabs(cw.chat).count();
  });

  it('"Fork session" opens a new selected tab with the whole transcript and the fork notice', async () => {
    const source = await selectedTitle();
    const before = await conversation();
    assert.deepStrictEqual(before, ['you: first', 'agent: echo: first', 'you: second', 'agent: echo: second']);
    await button(header(), 'Fork session').click();
    await until(async () => (await tabs(cw.chat).count()) === firstTabs + 1, 'the fork tab', 30_000);
    await until(async () => (await selectedTitle()) === `Fork of ${source}`, 'the fork tab to be selected', 30_000);
    await until(async () => JSON.stringify(await conversation()) === JSON.stringify(before), 'the transcript in the fork', 30_000);
    await transcript(cw.chat).locator('.notice-title', { hasText: `Forked from “${source}”` }).waitFor({ timeout: 30_000 });
    await screenshot(cw.page, 'session-fork');
    // The source keeps its own transcript, without a notice.
    await selectTab(source);
    assert.deepStrictEqual(await conversation(), before);
    assert.strictEqual(await transcript(cw.chat).locator('.notice').count(), 0);
  });

  it('"Fork from here" on the first message opens a tab with only the first turn', async () => {
    const source = await selectedTitle();
    const count = await tabs(cw.chat).count();
    await transcript(cw.chat).getByRole('article', { name: 'You' }).first().getByRole('button', { name: 'Fork from here', exact: true }).click();
    await until(async () => (await tabs(cw.chat).count()) === count + 1, 'the fork tab', 30_000);
    await until(async () => JSON.stringify(await conversation()) === JSON.stringify(['you: first', 'agent: echo: first']), 'only the first turn in the fork', 30_000);
    await transcript(cw.chat).locator('.notice-title', { hasText: 'at this message' }).waitFor({ timeout: 30_000 });
    await selectTab(source);
  });

  /** "Rename session" in the header, then the title shown in the tab and the heading. */
  async function renameSelected(title: string): Promise<void> {
    await button(header(), 'Rename session').click();
    await titleBox().fill(title);
    await titleBox().press('Enter');
    await until(async () => (await selectedTitle()) === title, `the tab to show "${title}"`, 30_000);
    await header().getByRole('heading', { name: title }).waitFor({ timeout: 30_000 });
  }

  it('"Rename session" in the header and a double-click on a tab rename the session', async () => {
    await renameSelected(RENAMED);

    await selectedTab().dblclick();
    await titleBox().fill(RENAMED_FROM_TAB);
    await titleBox().press('Enter');
    await until(async () => (await selectedTitle()) === RENAMED_FROM_TAB, `the tab to show "${RENAMED_FROM_TAB}"`, 30_000);
    await header().getByRole('heading', { name: RENAMED_FROM_TAB }).waitFor({ timeout: 30_000 });
  });

  it('an empty and a 201-character title are refused where they are typed; the old title stays', async () => {
    const old = await selectedTitle();
    for (const [title, error] of [
      ['   ', 'A session title cannot be empty.'],
      ['x'.repeat(201), 'A session title can have at most 200 characters; this one has 201.'],
    ] as const) {
      await button(header(), 'Rename session').click();
      await titleBox().fill(title);
      await titleBox().press('Enter');
      const alert = header().getByRole('alert');
      await until(async () => (await alert.innerText()).trim() === error, `the error "${error}"`, 30_000);
      assert.strictEqual(await titleBox().inputValue(), title, 'the typed title is kept for fixing');
      await titleBox().press('Escape');
      await titleBox().waitFor({ state: 'detached', timeout: 30_000 });
      assert.strictEqual(await selectedTitle(), old, 'the old title stays');
      await header().getByRole('heading', { name: old }).waitFor({ timeout: 30_000 });
    }
  });

  it('"Sign out" in the header ends the sign-in: the account display says Not signed in', async () => {
    const account = header().locator('.agent-account');
    await until(async () => (await account.innerText()).includes('Fake API key'), 'the account the agent reports', 30_000);
    await button(account, 'Sign out').click();
    await until(async () => (await account.innerText()).includes('Not signed in'), '"Not signed in" after Sign out', 30_000);
    assert.strictEqual(await button(account, 'Sign out').count(), 0, 'no Sign out once signed out');
    await screenshot(cw.page, 'session-signed-out');
  });

  it('the title survives a reload of the workbench page', async () => {
    // Its own renames, so it does not rely on what the rename test left.
    await renameSelected(BEFORE_RELOAD);
    await renameSelected(KEPT_ACROSS_RELOAD);
    await untilStored(KEPT_ACROSS_RELOAD);
    await cw.page.reload();
    await openChat(cw.page);
    await tabTitled(KEPT_ACROSS_RELOAD).first().waitFor({ timeout: 90_000 });
    assert.strictEqual(await tabTitled(BEFORE_RELOAD).count(), 0, 'the title of the last rename');
    await selectTab(KEPT_ACROSS_RELOAD);
    await header().getByRole('heading', { name: KEPT_ACROSS_RELOAD }).waitFor({ timeout: 30_000 });
  });

  it('a second window of the workspace, whose extension host gets another storage folder, reopens the saved tabs', async () => {
    // Opened while this window's extension host holds the lock of the workspace's storage folder, the
    // second window's host is given `<id>-1` (as the next host of a reload is when the last one is still
    // shutting down). The saved sessions must not depend on that folder.
    // Its own rename, so it does not rely on what the reload test left.
    await renameSelected(SHOWN_IN_SECOND_WINDOW);
    await untilStored(SHOWN_IN_SECOND_WINDOW);
    const second = await cw.page.context().newPage();
    try {
      await second.goto(e2eEnv().url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      const secondChat = await openChat(second);
      await tabs(secondChat).filter({ hasText: SHOWN_IN_SECOND_WINDOW }).first().waitFor({ timeout: 90_000 });
      const storage = path.join(e2eEnv().userDataDir, 'User', 'workspaceStorage');
      assert.ok(fs.readdirSync(storage).some((name) => name.endsWith('-1')), `a second storage folder was handed out: ${fs.readdirSync(storage).join(', ')}`);
    } finally {
      await second.close();
    }
  });
});
