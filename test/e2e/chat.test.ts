// The chat panel in the real workbench (code-server + the packaged VSIX) with the scripted demo agent
// (test/fixtures/agents/demo-agent.mjs): a full turn typed into "Message" and sent with Enter renders the
// user message, streamed Markdown (heading, list, code block with Copy), a collapsible thought, the plan,
// tool calls as named groups with status, a permission card whose "Allow" lets the edit reach the disk,
// live terminal output; the Mode and Model pickers reach the agent; Stop cancels a turn; New session opens
// a second tab. Screenshots of the finished turn in light, dark and high contrast.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import {
  button,
  chatFrameHandle,
  hideSwitchboardView,
  DEMO_AGENT,
  messageBox,
  newSession,
  openChat,
  restoreWorkspaceFile,
  sendMessage,
  tabs,
  toolCall,
  toolStatus,
  transcript,
  turnsEnded,
  until,
  waitForTurnEnd,
  workspaceFile,
  REPO,
} from './helpers/chat';
import { useChatWorkbench } from './helpers/chatWorkbench';
import { auditContrast } from './helpers/contrast';
import { persistedOpenTabs } from './helpers/realAgents';
import { runCommand, screenshot, setColorTheme, THEMES, type ThemeKind } from './helpers/workbench';
import { settingsText } from './helpers/stored';

const EDIT_MARK = '// Edited by the Switchboard demo agent.';

/**
 * Makes the shown session one holding the demo agent's whole tour (answer, edit allowed, command run) unless
 * it already does: the theme tests audit that turn, whether or not the full-turn test ran before them.
 */
async function showFinishedTour(chat: FrameLocator): Promise<void> {
  const log = transcript(chat);
  if ((await toolCall(log, 'Run node --version').count()) > 0 && (await log.getByText('Done. Open the diff from the edit card').count()) > 0) return;
  // With no session yet, the first message opens one (as in the full-turn test).
  if ((await tabs(chat).count()) > 0) await newSession(chat);
  const before = await turnsEnded(chat);
  await sendMessage(chat, 'hello, a tour for the theme tests');
  const card = toolCall(log, 'Edit greet.js').last().getByRole('region', { name: 'Permission: Edit greet.js' });
  await card.waitFor({ timeout: 60_000 });
  await button(card, 'Allow').click();
  await waitForTurnEnd(chat, before, 90_000);
}

/**
 * `text` somewhere in the shown session: the virtualized transcript renders only what is near the viewport,
 * so it is scrolled up a screen at a time from the end (and round again) until the text is there.
 */
async function textInSession(chat: FrameLocator, text: string, timeoutMs: number): Promise<void> {
  const log = transcript(chat);
  await until(
    async () => {
      if (await log.getByText(text).first().isVisible()) return true;
      await log.evaluate((el) => {
        el.scrollTop = el.scrollTop <= 0 ? el.scrollHeight : el.scrollTop - el.clientHeight * 0.8;
      });
      return false;
    },
    `"${text}" in the session`,
    timeoutMs,
  );
}

describe('Chat panel with the demo agent', function () {
  this.timeout(240_000);
  let original = '';

  before(() => {
    original = restoreWorkspaceFile('src/greet.js');
  });
  const cw = useChatWorkbench({
    name: 'chat',
    agent: DEMO_AGENT,
    settings: { 'workbench.colorTheme': THEMES.dark.name },
    width: 1400,
    height: 1000,
    sideBar: 640,
    // Copy writes to the clipboard through the browser.
    clipboard: true,
    onFailure: () => `settings after the failure: ${settingsText()}`,
  });

  it('runs a full turn typed into "Message" and sent with Enter', async () => {
    const log = transcript(cw.chat);
    assert.strictEqual(await log.getAttribute('aria-live'), 'polite');
    const before = await turnsEnded(cw.chat).catch(() => 0);
    await sendMessage(cw.chat, 'hello from the e2e test');

    // The user's message, in the log.
    const you = log.getByRole('article', { name: 'You' }).last();
    await you.waitFor({ timeout: 60_000 });
    assert.match(await you.innerText(), /hello from the e2e test/);

    // The plan (updated as the turn goes).
    const plan = log.getByRole('group', { name: 'Plan' }).first();
    await plan.waitFor({ timeout: 60_000 });
    for (const step of ['Look at the workspace', 'Propose an edit', 'Run a command']) {
      await plan.getByText(step).first().waitFor();
    }

    // The thought: collapsed by default, a toggle with aria-expanded that reveals it.
    const thinking = log.getByRole('button', { name: 'Thinking' }).first();
    await thinking.waitFor({ timeout: 60_000 });
    assert.strictEqual(await thinking.getAttribute('aria-expanded'), 'false');
    await thinking.click();
    await until(async () => (await thinking.getAttribute('aria-expanded')) === 'true', 'the thought to expand');
    await log.locator('.thought').first().getByText('The user wants a tour', { exact: false }).waitFor();
    await thinking.click();
    await until(async () => (await thinking.getAttribute('aria-expanded')) === 'false', 'the thought to collapse');
    assert.strictEqual(await log.locator('.thought').first().getByText('The user wants a tour', { exact: false }).count(), 0);

    // The streamed answer as Markdown: a heading, a list, bold, a code block with its Copy button.
    const answer = log.getByRole('article', { name: 'Agent' }).first();
    await answer.getByRole('heading', { name: 'What I can do here', level: 2 }).waitFor({ timeout: 60_000 });
    await answer.locator('strong', { hasText: 'scripted demo agent' }).waitFor();
    const items = answer.getByRole('listitem');
    const listed = async () => (await items.allInnerTexts()).map((t) => t.trim()).slice(0, 4);
    // The last item may still be streaming when the fourth appears: wait for the list as it ends.
    await until(async () => (await listed()).at(-1) === 'commands in real terminals', 'the four list items, streamed to their end', 30_000);
    assert.deepStrictEqual(await listed(), [
      'streamed Markdown like this',
      'tool calls with locations you can click',
      'edits you review in a diff',
      'commands in real terminals',
    ]);
    const code = answer.locator('.code-block').first();
    await code.waitFor({ timeout: 30_000 });
    // The block shows while it streams (plain pieces); once the fence closes it is highlighted (hljs spans).
    await until(async () => /console\.log\("hello from the demo agent"\);/.test(await code.locator('pre code').innerText()), 'the whole code block', 30_000);
    assert.strictEqual(await code.getAttribute('data-lang'), 'js');
    await until(async () => (await code.locator('pre code span.hljs-string').count()) > 0, 'the code block to be highlighted', 30_000);
    // No raw Markdown fence left in the text.
    assert.doesNotMatch(await answer.innerText(), /```|##/);
    const copy = code.getByRole('button', { name: 'Copy code' });
    await copy.click();
    await cw.chat.getByRole('status').filter({ hasText: 'Copied' }).waitFor({ timeout: 20_000 });

    // The read tool call: a group named by its title, with its status and location.
    const read = toolCall(log, 'Read greet.js').first();
    await read.waitFor({ timeout: 60_000 });
    await until(async () => (await toolStatus(read)) === 'Completed', '"Read greet.js" to complete', 30_000);
    await read.getByRole('button', { name: /^Open .*greet\.js at line 1$/ }).waitFor();

    // The permission request shows in its tool call's group: one button per option, named by the option's name.
    const edit = toolCall(log, 'Edit greet.js').first();
    const card = edit.getByRole('region', { name: 'Permission: Edit greet.js' });
    await card.waitFor({ timeout: 60_000 });
    for (const name of ['Allow', 'Always Allow', 'Reject']) await button(edit, name).waitFor();
    assert.deepStrictEqual((await card.locator('.permission-options button').allInnerTexts()).map((t) => t.trim()), ['Allow', 'Always Allow', 'Reject']);
    // Not a second card repeating the diff: the tool call's own preview is the only one.
    assert.strictEqual(await log.getByRole('region', { name: /^Permission:/ }).count(), 1);
    assert.strictEqual(await edit.locator('.diff-preview').count(), 1);
    // The edit waits for the answer: the tool call's diff preview shows the line to be added; the file is untouched.
    assert.match(await edit.locator('.diff-lines').innerText(), /Edited by the Switchboard demo agent/);
    assert.strictEqual(await toolStatus(edit), 'Awaiting permission');
    assert.strictEqual(fs.readFileSync(workspaceFile('src/greet.js'), 'utf8'), original);
    // Readable while it waits (the theme tests below audit the finished turn in every theme).
    const audit = await (await chatFrameHandle(cw.page)).evaluate(auditContrast);
    assert.deepStrictEqual(audit.failing, [], 'texts under the WCAG AA contrast while the permission card shows');

    await button(edit, 'Allow').click();
    await card.waitFor({ state: 'detached', timeout: 30_000 });
    const greet = workspaceFile('src/greet.js');
    const written = await until(() => {
      const t = fs.readFileSync(greet, 'utf8');
      return t.includes(EDIT_MARK) ? t : undefined;
    }, 'src/greet.js on disk to carry the demo agent\'s edit', 60_000);
    assert.strictEqual(written, `${original.replace(/\s*$/, '')}\n${EDIT_MARK}\n`);
    await until(async () => (await toolStatus(edit)) === 'Completed', '"Edit greet.js" to complete', 30_000);

    // The terminal run: live output in the tool card.
    const run = toolCall(log, 'Run node --version').first();
    await run.waitFor({ timeout: 60_000 });
    const out = run.getByLabel('Terminal output');
    // Two lines of output, which may arrive in separate updates.
    await until(async () => /node v20\.\d+\.\d+[\s\S]*files: .*src/.test(await out.innerText()), '"node v20" and the file list in the terminal output', 60_000);
    assert.ok(!(await out.innerText()).includes('\u001b['), 'ANSI colour codes are not shown raw');
    await until(async () => (await toolStatus(run)) === 'Completed', '"Run node --version" to complete', 60_000);

    const end = await waitForTurnEnd(cw.chat, before, 90_000);
    assert.doesNotMatch((await end.getAttribute('class')) ?? '', /reason-cancelled/);
    await log.getByText('Done. Open the diff from the edit card').waitFor();
    // The plan finished; the usage meter and the session title arrived.
    await plan.getByText('3 of 3 done').waitFor({ timeout: 10_000 });
    await cw.chat.getByRole('meter', { name: 'Context usage' }).waitFor({ timeout: 10_000 });
    assert.match((await tabs(cw.chat).last().innerText()).trim(), /Demo: hello from the e2e test/);
    await screenshot(cw.page, 'chat-full-turn');

    // "Open terminal" on the terminal card shows the command's VS Code terminal (named after the tool call).
    await button(run, 'Open terminal').click();
    const terminalTab = cw.page.locator('.part.panel').locator('.single-terminal-tab, .terminal-tabs-entry').filter({ hasText: 'Run node --version' });
    await terminalTab.first().waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(cw.page, 'chat-open-terminal');
    await runCommand(cw.page, 'View: Hide Panel');
  });

  for (const kind of ['light', 'dark', 'high-contrast'] as ThemeKind[]) {
    it(`shows the finished turn in the ${kind} theme`, async () => {
      const page = cw.page;
      await setColorTheme(page, kind);
      await openChat(page);
      await showFinishedTour(cw.chat);
      const log = transcript(cw.chat);
      // The transcript comes back from the host if the page was reloaded for the theme.
      await log.getByRole('heading', { name: 'What I can do here' }).waitFor({ timeout: 60_000 });
      await toolCall(log, 'Run node --version').first().waitFor({ timeout: 30_000 });
      // The webview paints with the theme's --vscode-* colours: its body background follows the workbench.
      const frame = await chatFrameHandle(page);
      const themeKind = await frame.evaluate(() => document.body.getAttribute('data-vscode-theme-kind') ?? document.body.className);
      const expected = { light: 'vscode-light', dark: 'vscode-dark', 'high-contrast': 'vscode-high-contrast' }[kind];
      await until(async () => ((await frame.evaluate(() => document.body.getAttribute('data-vscode-theme-kind') ?? document.body.className)) ?? '').includes(expected), `the webview body to be ${expected} (was ${themeKind})`, 20_000);
      // Text is readable (WCAG AA contrast), code included: its punctuation was drawn in the background's
      // colour in high contrast once.
      const audit = await frame.evaluate(auditContrast);
      assert.ok(audit.codeBlock >= 4.5 && audit.inlineCode >= 4.5, `code text contrast in ${kind}: block ${audit.codeBlock}, inline ${audit.inlineCode} (want >= 4.5)`);
      assert.ok(audit.measured > 30, `only ${audit.measured} texts were measured`);
      assert.deepStrictEqual(audit.failing, [], `texts under the WCAG AA contrast in ${kind}`);
      // Scroll so the answer, the tool calls and the terminal are in view.
      await log.getByRole('heading', { name: 'What I can do here' }).scrollIntoViewIfNeeded();
      await page.waitForTimeout(600);
      const file = await screenshot(page, `chat-turn-${kind}`);
      if (kind === 'dark') fs.copyFileSync(file, path.join(REPO, 'media', 'screenshot.png'));
    });
  }

  it('changes the mode and the model, and the agent\'s choice is reflected', async () => {
    const page = cw.page;
    await setColorTheme(page, 'dark');
    await openChat(page);
    // A session of its own, in the agent's default mode and model.
    await newSession(cw.chat);
    const mode = cw.chat.getByRole('combobox', { name: 'Mode', exact: true });
    const model = cw.chat.getByRole('combobox', { name: 'Model', exact: true });
    await mode.waitFor({ timeout: 30_000 });
    const label = (l: typeof mode) => l.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? '');
    assert.deepStrictEqual(await mode.locator('option').allTextContents(), ['Ask before edits', 'Auto-edit', 'Plan only']);
    assert.strictEqual(await label(mode), 'Ask before edits');
    assert.deepStrictEqual(await model.locator('option').allTextContents(), ['Demo Fast', 'Demo Thorough']);
    assert.strictEqual(await label(model), 'Demo Fast');

    await mode.selectOption({ label: 'Plan only' });
    await model.selectOption({ label: 'Demo Thorough' });
    // A turn re-renders the pickers from the session state many times: had the agent not taken the
    // choice (current_mode_update / set_config_option's answer), they would snap back.
    await sendMessage(cw.chat, 'explain', { waitForEnd: true });
    assert.strictEqual(await label(mode), 'Plan only');
    assert.strictEqual(await label(model), 'Demo Thorough');
    // And the view, rebuilt from the host's session state after being hidden (the webview is disposed), agrees.
    await hideSwitchboardView(page);
    await openChat(page);
    await cw.chat.getByRole('combobox', { name: 'Mode', exact: true }).waitFor({ timeout: 60_000 });
    await until(async () => (await label(cw.chat.getByRole('combobox', { name: 'Mode', exact: true }))) === 'Plan only', 'Mode "Plan only" after the view was hidden', 30_000);
    assert.strictEqual(await label(cw.chat.getByRole('combobox', { name: 'Model', exact: true })), 'Demo Thorough');
  });

  it('stops a running turn with "Stop": the turn ends as cancelled', async () => {
    const log = transcript(cw.chat);
    const stop = button(cw.chat, 'Stop');
    assert.ok(await stop.isDisabled(), 'Stop is disabled while no turn runs');
    const onDisk = fs.readFileSync(workspaceFile('src/greet.js'), 'utf8');
    const before = await turnsEnded(cw.chat);
    const answers = await log.getByRole('article', { name: 'Agent' }).count();
    await sendMessage(cw.chat, 'a second tour, to be stopped');
    await until(async () => !(await stop.isDisabled()), 'Stop to be enabled while the turn runs', 30_000);
    // Wait until the answer streams, then stop.
    await until(async () => (await log.getByRole('article', { name: 'Agent' }).count()) > answers, 'the answer to start streaming', 30_000);
    await stop.click();
    const end = await waitForTurnEnd(cw.chat, before, 60_000);
    assert.match((await end.getAttribute('class')) ?? '', /reason-cancelled/);
    assert.match(await end.innerText(), /Cancelled/);
    await until(async () => await stop.isDisabled(), 'Stop to be disabled after the turn', 30_000);
    // The tour stopped before its edit: no permission card, the file is as it was.
    assert.strictEqual(await log.getByRole('region', { name: /^Permission:/ }).count(), 0);
    assert.strictEqual(fs.readFileSync(workspaceFile('src/greet.js'), 'utf8'), onDisk);
    // The composer is usable again.
    assert.ok(await messageBox(cw.chat).isEditable());
  });

  it('follows a streamed answer while at the bottom, stays where the user scrolled up to, and follows again on send', async () => {
    const log = transcript(cw.chat);
    /** Pixels between the bottom of what is shown and the end of the transcript. */
    const below = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    // The scroll event (which decides whether to follow) is dispatched with the next frame.
    const nextFrames = () => log.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await sendMessage(cw.chat, 'stream 3000', { waitForEnd: true });
    await until(async () => (await below()) < 2, 'the transcript scrolled to the end of the answer');

    // Scrolled up while an answer streams (explain streams word by word): the view stays there.
    const answers = await log.getByRole('article', { name: 'Agent' }).count();
    await sendMessage(cw.chat, 'explain');
    await until(async () => (await log.getByRole('article', { name: 'Agent' }).count()) > answers, 'the answer to start streaming');
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    await nextFrames();
    // The turn's end is out of the DOM up here (the transcript is virtualized): Stop says it ended.
    await until(async () => await button(cw.chat, 'Stop').isDisabled(), 'the turn to end', 90_000);
    await nextFrames();
    assert.strictEqual(await log.evaluate((el) => el.scrollTop), 0, 'the transcript stays where the user scrolled up to');

    // Sending a message goes back to the end and follows the answer.
    await sendMessage(cw.chat, 'stream 3000', { waitForEnd: true });
    await until(async () => (await below()) < 2, 'the transcript follows again after a message is sent');
  });

  it('types into "Message" while Ctrl combinations and chords typed there still reach the workbench', async () => {
    const box = messageBox(cw.chat);
    await box.click();
    await box.fill('');
    await box.pressSequentially('plain keys stay here', { delay: 20 });
    assert.strictEqual(await box.inputValue(), 'plain keys stay here');
    // Ctrl+Shift+P from the composer opens the Command Palette; Escape closes it.
    await box.press('Control+Shift+P');
    const palette = cw.page.locator('.quick-input-widget');
    await palette.waitFor({ state: 'visible', timeout: 30_000 });
    await cw.page.keyboard.press('Escape');
    await palette.waitFor({ state: 'hidden', timeout: 30_000 });
    // A chord's second key is a plain key: Ctrl+K then Q (bound to nothing) reaches the workbench, which says so.
    await box.click();
    await box.press('Control+K');
    const status = cw.page.locator('[id="workbench.parts.statusbar"]');
    await status.getByText(/Waiting for (second|next) key of chord/).waitFor({ timeout: 30_000 });
    await box.press('q');
    await status.getByText(/The key combination \(Ctrl\+K, Q\) is not a command/).waitFor({ timeout: 30_000 });
    await box.fill('');
  });

  it('opens a second session in a new tab with "New session"', async () => {
    // A turn of its own in the tab it starts from, to find there again (the demo agent titles the session
    // after the message).
    const mark = `explain tab-before-${Date.now()}`;
    await sendMessage(cw.chat, mark, { waitForEnd: true });
    const count = await tabs(cw.chat).count();
    const first = tabs(cw.chat).filter({ hasText: mark.slice('explain '.length) });
    await until(async () => (await first.getAttribute('aria-selected')) === 'true', 'the tab of its turn to be selected');
    await newSession(cw.chat);
    assert.strictEqual(await tabs(cw.chat).count(), count + 1);
    const log = transcript(cw.chat);
    await log.getByText('Ask the agent anything').waitFor({ timeout: 30_000 });
    assert.strictEqual(await log.getByRole('article').count(), 0, 'the new session starts empty');
    // It works on its own: a turn in it, and the first tab still holds the first session.
    await sendMessage(cw.chat, 'explain', { waitForEnd: true });
    await log.getByRole('heading', { name: 'What I can do here' }).waitFor();
    await first.click();
    await until(async () => (await first.getAttribute('aria-selected')) === 'true', 'the first tab to be selected');
    await textInSession(cw.chat, mark, 30_000);
    await screenshot(cw.page, 'chat-two-sessions');
  });

  it('brings the open tabs and their transcripts back after a window reload', async () => {
    // Two sessions of its own, each with a turn; the demo agent titles each after its message.
    const marks = ['a', 'b'].map((x) => `explain reload-${x}-${Date.now()}`);
    for (const mark of marks) {
      await newSession(cw.chat);
      await sendMessage(cw.chat, mark, { waitForEnd: true });
    }
    const before = await tabs(cw.chat).count();
    // The open tabs (a workspace memento) reach the browser's storage a moment after they change: a reload
    // before that would bring back the tabs as they were.
    await until(async () => ((await persistedOpenTabs(cw.page)) ?? []).length === before, `the ${before} open tabs to be stored`, 30_000);
    await cw.page.reload();
    await openChat(cw.page);
    await until(async () => (await tabs(cw.chat).count()) === before, `the ${before} tabs to come back`, 90_000);
    // Both tabs, with their titles; the one that was active is again, with its transcript.
    for (const mark of marks) await tabs(cw.chat).filter({ hasText: mark.slice('explain '.length) }).waitFor({ timeout: 60_000 });
    const active = tabs(cw.chat).filter({ hasText: marks[1].slice('explain '.length) });
    await until(async () => (await active.getAttribute('aria-selected')) === 'true', 'the tab that was active to be selected again', 60_000);
    await textInSession(cw.chat, marks[1], 60_000);
    // The other tab shows its own transcript, not the active one's.
    const other = tabs(cw.chat).filter({ hasText: marks[0].slice('explain '.length) });
    await other.click();
    await until(async () => (await other.getAttribute('aria-selected')) === 'true', 'the other restored tab to be selected', 30_000);
    await textInSession(cw.chat, marks[0], 30_000);
    assert.strictEqual(await transcript(cw.chat).getByText(marks[1]).count(), 0, 'the other tab does not show the active tab\'s messages');
    await active.click();
    // The agents are listed again (the settings are read anew after the reload).
    await until(
      async () => {
        const picker = cw.chat.getByRole('combobox', { name: 'Agent', exact: true });
        const options = await picker.locator('option').allTextContents();
        if (options.includes(DEMO_AGENT)) return true;
        throw new Error(`the picker lists ${JSON.stringify(options)} (${await picker.evaluate((e) => e.outerHTML.slice(0, 300))})`);
      },
      `"${DEMO_AGENT}" in the Agent picker after the reload (settings: ${settingsText()})`,
      60_000,
    );
    // The reopened session still works: the next prompt binds it to a fresh agent process.
    await sendMessage(cw.chat, 'explain', { waitForEnd: true });
    await screenshot(cw.page, 'chat-after-reload');
  });
});
