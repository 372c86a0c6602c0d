// A remote agent through the real workbench: a `switchboard.agents` entry with `url` reaches the demo agent
// hosted by the SDK's experimental server on 127.0.0.1 (test/fixtures/remote/acp-server.mjs); a turn streams
// into the chat; when the server dies the banner offers "Reconnect", and once it is back the next message works.
// (Switchboard also retries by itself, 1, 2, 4… s after a drop: whichever reconnects first, the next message works.)
import { startAcpServer, type AcpTestServer } from '../fixtures/remote/acpServer';
import { button, selectAgent, sendMessage, transcript, until } from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';

const AGENT = 'Remote Demo';

describe('A remote agent in the workbench', function () {
  this.timeout(180_000);
  let server: AcpTestServer;

  before(async () => {
    server = await startAcpServer(['--agent=demo']);
  });
  const cw = useChatWorkbench({
    name: 'remote',
    agent: AGENT,
    noPick: true,
    settings: () => ({ 'switchboard.agents': { [AGENT]: { url: `http://127.0.0.1:${server.port}/acp` } } }),
    width: 1400,
    height: 1000,
  });
  after(() => server.kill());

  it('streams a turn from the remote agent; after the server dies and comes back, Reconnect (or the automatic retry) brings it back for the next message', async () => {
    await selectAgent(cw.chat, AGENT);
    await sendMessage(cw.chat, 'stream 40', { waitForEnd: true });
    await until(async () => (await transcript(cw.chat).innerText()).includes('chunk 39'), 'the streamed answer from the remote agent');

    await server.kill();
    const reconnect = button(cw.chat, 'Reconnect');
    await reconnect.waitFor({ timeout: 60_000 });
    server = await startAcpServer(['--agent=demo', `--port=${server.port}`]);
    // Reconnect, unless the automatic retry (1, 2, 4… s after the drop) reconnected first: then the banner,
    // and the button with it, goes away between finding the button and clicking it.
    await until(
      async () => {
        if (await reconnect.isVisible()) await reconnect.click({ timeout: 2_000 }).catch(() => undefined);
        return !(await reconnect.isVisible());
      },
      'the banner gone once reconnected',
      60_000,
    );
    await sendMessage(cw.chat, 'stream 30', { waitForEnd: true });
    await until(async () => (await transcript(cw.chat).innerText()).includes('chunk 29'), 'the answer after reconnecting');
  });
});
