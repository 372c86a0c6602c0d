// The workbench a describe's tests share, with the chat open: useChatWorkbench() registers the hooks every
// chat file needs. Before the tests: the agents' settings written, the workbench opened, the chat shown, the
// agent picked (and a session opened). After a failed test: a screenshot and what the workbench showed.
// After the tests: the browser console saved and the workbench closed. Mocha runs hooks in the order they
// were added, so a describe's own before() registered ahead of the call runs first (files, servers), and its
// own after() registered behind the call runs once the workbench is closed.
//
//   describe('my feature', function () {
//     const cw = useChatWorkbench({ name: 'my-feature', agent: FAKE_AGENT, newSession: true });
//     it('answers', async () => { await sendMessage(cw.chat, 'hello', { waitForEnd: true }); });
//   });
import type { FrameLocator, Page } from 'playwright-core';
import { configureAgents, DEMO_AGENT, newSession, openChat, selectAgent, widenSideBar } from './chat';
import { closeWorkbench, e2eEnv, openWorkbench, reportFailure, saveConsole, type Workbench } from './workbench';

export interface ChatWorkbenchOptions {
  /** Names the artifacts: failed-<name>-<test>.png, <name>.console.log. */
  readonly name: string;
  /** The default agent, picked in the Agent picker before the tests (the demo and fake agents are configured). */
  readonly agent?: string;
  /** More settings, written with the agents' before the workbench opens (a function runs then). */
  readonly settings?: Record<string, unknown> | (() => Record<string, unknown>);
  readonly width?: number;
  readonly height?: number;
  /** Leaves the Agent picker as the window starts (no agent picked). */
  readonly noPick?: boolean;
  /** Opens a session with "New session" before the tests. */
  readonly newSession?: boolean;
  /** Widens the side bar to this many pixels (roomier screenshots). */
  readonly sideBar?: number;
  /** Lets the page read and write the clipboard, as a browser where the user allowed it. */
  readonly clipboard?: boolean;
  /** Printed after a failed test (given its title), e.g. a model endpoint's log. */
  readonly onFailure?: (title: string) => string;
  /** Leaves the window as later files expect, before it closes. */
  readonly beforeClose?: (page: Page) => Promise<unknown>;
}

/** The shared workbench; its members throw until the describe's before() has opened it. */
export interface ChatWorkbench {
  readonly wb: Workbench;
  readonly page: Page;
  readonly chat: FrameLocator;
}

/** Registers the describe's workbench hooks (call it in the describe's body) and returns its workbench. */
export function useChatWorkbench(options: ChatWorkbenchOptions): ChatWorkbench {
  let wb: Workbench | undefined;
  let chat: FrameLocator | undefined;
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error(`the workbench of "${options.name}" is not open (its before() failed or has not run)`);
    return value;
  };

  before(async function () {
    const settings = typeof options.settings === 'function' ? options.settings() : (options.settings ?? {});
    configureAgents(options.agent ?? DEMO_AGENT, settings);
    wb = await openWorkbench({ width: options.width ?? 1280, height: options.height ?? 900 });
    if (options.clipboard) {
      await wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(e2eEnv().url).origin });
    }
    chat = await openChat(wb.page);
    if (options.sideBar) await widenSideBar(wb.page, options.sideBar);
    if (options.agent && !options.noPick) await selectAgent(chat, options.agent);
    if (options.newSession) await newSession(chat);
  });

  afterEach(async function () {
    if (!wb || this.currentTest?.state !== 'failed') return;
    await reportFailure(wb.page, `${options.name}-${this.currentTest.title}`);
    if (options.onFailure) console.log(options.onFailure(this.currentTest.title));
  });

  after(async () => {
    if (wb) {
      await options.beforeClose?.(wb.page).catch((e: unknown) => console.log(`    (leaving the window as later files expect failed: ${String(e)})`));
      saveConsole(wb, options.name);
    }
    await closeWorkbench(wb);
    wb = undefined;
    chat = undefined;
  });

  return {
    get wb() {
      return opened(wb);
    },
    get page() {
      return opened(wb).page;
    },
    get chat() {
      return opened(chat);
    },
  };
}
