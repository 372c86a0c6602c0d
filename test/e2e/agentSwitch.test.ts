// Switching agents in the Agent picker, then "New session", then typing at once, with agents that start in
// milliseconds (local fake agents, and two remote ones over Streamable HTTP and WebSocket): the picked
// agent's tab stays, the picker stays on it, "New session" opens a second session at that agent (its
// session/new is recorded by the fake agent's --record), and the message typed right after is answered by
// it — never sent to the session of the agent the user switched away from, whether that agent's turn had
// finished or was still running.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FrameLocator, Locator } from 'playwright-core';
import { startAcpServer, type AcpTestServer } from '../fixtures/remote/acpServer';
import { button, messageBox, newSession, REPO, selectAgent, sendMessage, tabs, transcript, turnsEnded, until } from './helpers/chat';
import { useChatWorkbench, type ChatWorkbench } from './helpers/chatWorkbench';

const FAKE = path.join(REPO, 'test', 'fixtures', 'agents', 'fake-agent.mjs');

interface Recorded {
  method: string;
  params?: { sessionId?: string; prompt?: { type: string; text?: string }[] };
}

/** The requests a fake agent got so far (it appends one JSON line per request to its --record file). */
function recorded(file: string): Recorded[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);
}
const promptText = (r: Recorded) => r.params?.prompt?.map((b) => b.text ?? '').join('') ?? '';

/** Drives one workbench's chat; `records` maps an agent's name to its fake agent's --record file. */
class AgentSwitch {
  constructor(
    private readonly cw: ChatWorkbench,
    private readonly records: Record<string, string>,
  ) {}

  private get chat(): FrameLocator {
    return this.cw.chat;
  }

  count(agent: string, method: string): number {
    return recorded(this.records[agent]).filter((r) => r.method === method).length;
  }

  prompts(agent: string): string[] {
    return recorded(this.records[agent])
      .filter((r) => r.method === 'session/prompt')
      .map(promptText);
  }

  private picker(): Locator {
    return this.chat.getByRole('combobox', { name: 'Agent', exact: true });
  }

  pickerShows(): Promise<string> {
    return this.picker().evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? '');
  }

  /** A fresh session of `agent`, shown, with the picker on it. */
  async sessionOf(agent: string): Promise<void> {
    await selectAgent(this.chat, agent);
    await until(async () => (await this.pickerShows()) === agent, `the picker to show ${agent}`);
    // Picking it may have opened a session already; New session gives this test its own either way.
    await until(async () => (await this.chat.getByRole('status').filter({ hasText: 'Starting a new session' }).count()) === 0, 'no session starting', 60_000);
    await newSession(this.chat);
    await until(async () => (await this.pickerShows()) === agent, `the picker to show ${agent}`);
  }

  /**
   * Picks `agent` (its tab opens and is shown), presses New session, and types and sends `text` at once.
   * Resolves when the message is answered; checks the tabs, the picker and what each agent got.
   */
  async pickThenNewSessionThenSend(from: string, agent: string, text: string): Promise<void> {
    const chat = this.chat;
    const tabsBefore = await tabs(chat).count();
    const newAtAgent = this.count(agent, 'session/new');
    const promptsAtFrom = this.prompts(from).length;
    await this.picker().selectOption({ label: agent });
    await until(async () => (await tabs(chat).count()) === tabsBefore + 1, `${agent}'s tab`, 60_000);
    await until(async () => (await tabs(chat).last().getAttribute('aria-selected')) === 'true', `${agent}'s tab to be shown`);
    assert.strictEqual(await this.pickerShows(), agent, 'the picker shows the agent picked');
    const firstTab = await tabs(chat).last().getAttribute('id');

    // Found by name loosely, as voice control or a script finds it: no other button's name (a tab's close
    // button, "Close session <title>") may contain "New session", or that tab closes instead.
    const newSessionButton = chat.getByRole('button', { name: 'New session' });
    assert.strictEqual(await newSessionButton.count(), 1, 'one button whose name says New session');
    await newSessionButton.click();
    await messageBox(chat).fill(text);
    await messageBox(chat).press('Enter');

    await until(async () => (await tabs(chat).count()) === tabsBefore + 2, `a second tab of ${agent}`, 60_000);
    await until(async () => (await tabs(chat).last().getAttribute('aria-selected')) === 'true', 'the newest tab to be shown');
    await until(async () => (await turnsEnded(chat)) > 0, 'the answer in the new tab', 60_000);
    await until(async () => (await transcript(chat).innerText()).includes(`echo: ${text}`), `the answer to "${text}"`);
    assert.strictEqual(this.count(agent, 'session/new'), newAtAgent + 2, `${agent} got session/new for its tab and for New session`);
    assert.deepStrictEqual(this.prompts(agent).filter((p) => p === text), [text], `${agent} got the message once`);
    assert.strictEqual(this.prompts(from).length, promptsAtFrom, `${from} got no message after the switch`);
    assert.strictEqual(await this.pickerShows(), agent, 'the picker still shows the agent picked');
    assert.strictEqual(await chat.locator(`[role="tab"][id="${firstTab}"]`).count(), 1, `${agent}'s first tab stays`);
    assert.strictEqual(await tabs(chat).count(), tabsBefore + 2, 'no tab closed');
  }
}

describe('Switching agents, then New session', function () {
  this.timeout(240_000);
  const A = 'Switch Agent A';
  const B = 'Switch Agent B';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-switch-'));
  const records = { [A]: path.join(dir, 'a.jsonl'), [B]: path.join(dir, 'b.jsonl') };
  const cw = useChatWorkbench({
    name: 'agent-switch',
    agent: A,
    noPick: true,
    settings: {
      'switchboard.agents': {
        [A]: { command: process.execPath, args: [FAKE, `--record=${records[A]}`] },
        [B]: { command: process.execPath, args: [FAKE, `--record=${records[B]}`] },
      },
    },
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const driver = new AgentSwitch(cw, records);

  it("with A's turn finished: B's tab stays, the picker stays on B, B opens a second session and answers", async () => {
    await driver.sessionOf(A);
    await sendMessage(cw.chat, 'hello A', { waitForEnd: true });
    await driver.pickThenNewSessionThenSend(A, B, 'to B after the switch');
  });

  it("with A's turn still running: the message goes to B's new session, and A's turn goes on in its tab", async () => {
    await driver.sessionOf(A);
    const aTab = await tabs(cw.chat).last().getAttribute('id');
    // The fake agent keeps this turn running until it is cancelled.
    await sendMessage(cw.chat, 'wait-cancel');
    await until(() => driver.prompts(A).includes('wait-cancel'), `${A} to get the prompt that keeps running`);
    await driver.pickThenNewSessionThenSend(A, B, 'to B while A works');
    // A's turn was left alone: it still runs in its own tab, where Stop ends it.
    await cw.chat.locator(`[role="tab"][id="${aTab}"]`).click();
    const stop = button(cw.chat, 'Stop');
    await until(() => stop.isEnabled(), "Stop in A's tab");
    await stop.click();
    await until(async () => (await turnsEnded(cw.chat)) > 0, "A's turn to end once stopped", 60_000);
  });
});

describe('Switching between two remote agents, then New session', function () {
  this.timeout(240_000);
  const HTTP = 'Switch Remote HTTP';
  const WS = 'Switch Remote WS';
  const servers: AcpTestServer[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-switch-remote-'));
  const records = { [HTTP]: path.join(dir, 'http.jsonl'), [WS]: path.join(dir, 'ws.jsonl') };

  before(async () => {
    // Each server hosts a fake agent of its own, recording what it gets.
    servers.push(await startAcpServer(['--agent=fake'], [`--record=${records[HTTP]}`]));
    servers.push(await startAcpServer(['--agent=fake'], [`--record=${records[WS]}`]));
  });
  const cw = useChatWorkbench({
    name: 'agent-switch-remote',
    agent: HTTP,
    noPick: true,
    settings: () => ({ 'switchboard.agents': { [HTTP]: { url: servers[0].http }, [WS]: { url: servers[1].ws } } }),
  });
  after(async () => {
    for (const s of servers) await s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const driver = new AgentSwitch(cw, records);

  it('from the Streamable HTTP agent to the WebSocket one', async () => {
    await driver.sessionOf(HTTP);
    await sendMessage(cw.chat, 'hello over HTTP', { waitForEnd: true });
    await driver.pickThenNewSessionThenSend(HTTP, WS, 'to the WebSocket agent');
  });

  it('from the WebSocket agent to the Streamable HTTP one', async () => {
    await driver.sessionOf(WS);
    await sendMessage(cw.chat, 'hello over WebSocket', { waitForEnd: true });
    await driver.pickThenNewSessionThenSend(WS, HTTP, 'to the HTTP agent');
  });
});
