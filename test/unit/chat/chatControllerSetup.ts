// The ChatController tests' shared setup (chatController.*.test.ts): a controller over the fake backend, UI and
// host actions with one attached webview whose posted messages are kept (as copies, as postMessage sends
// them), and the small waits and helpers the tests use.
import type { HostToWebviewMessage } from '../../../src/shared/messages';
import { ChatController } from '../../../src/chat/chatController';
import { fakeActions, FakeBackend, fakeUi } from './fakeChatBackend';
import { FLUSH_DELAY_MS } from './tick';

export { FLUSH_DELAY_MS, tick, useFakeClock } from './tick';

export function setup() {
  const backend = new FakeBackend();
  const uiLog: string[] = [];
  const actionLog: unknown[][] = [];
  const ctl = new ChatController(backend, fakeUi(uiLog), fakeActions(actionLog), { flushDelayMs: FLUSH_DELAY_MS });
  const posted: HostToWebviewMessage[] = [];
  ctl.attach({ postMessage: (m) => { posted.push(JSON.parse(JSON.stringify(m))); return true; } });
  return { backend, ctl, posted, uiLog, actionLog };
}

/** The messages posted, with each batch replaced by the messages in it. */
export function flatten(ms: HostToWebviewMessage[]): HostToWebviewMessage[] {
  return ms.flatMap((m) => (m.type === 'batch' ? flatten(m.messages) : [m]));
}
