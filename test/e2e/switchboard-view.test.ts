// The packaged extension in the real workbench: the Switchboard view opens from the activity bar, its
// chat webview renders, and it is themed in light, dark and high contrast (screenshots kept as artifacts).
import * as assert from 'assert';
import {
  chatFrame,
  closeWorkbench,
  openSwitchboardView,
  openWorkbench,
  reportFailure,
  saveConsole,
  screenshot,
  setColorTheme,
  type ThemeKind,
  type Workbench,
} from './helpers/workbench';

describe('Switchboard view in the workbench', function () {
  this.timeout(120_000);
  let wb: Workbench | undefined;

  before(async () => {
    wb = await openWorkbench();
  });

  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') {
      await reportFailure(wb.page, `${this.currentTest.title}`);
    }
  });

  after(async () => {
    if (wb) saveConsole(wb, 'switchboard-view');
    await closeWorkbench(wb);
  });

  it('opens the Switchboard view from the activity bar', async () => {
    const page = wb!.page;
    const bar = await openSwitchboardView(page);
    assert.match((await bar.locator('.composite.title .title-label').innerText()).trim(), /switchboard/i);
    await screenshot(page, 'switchboard-view-opened');
  });

  it('shows the chat webview with the prompt box "Message"', async () => {
    await openSwitchboardView(wb!.page);
    const chat = chatFrame(wb!.page);
    await chat.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible', timeout: 60_000 });
    const file = await screenshot(wb!.page, 'switchboard-view');
    assert.ok(file.endsWith('switchboard-view.png'));
  });

  for (const kind of ['light', 'dark', 'high-contrast'] as ThemeKind[]) {
    it(`is themed in ${kind}`, async () => {
      const page = wb!.page;
      await setColorTheme(page, kind);
      await openSwitchboardView(page);
      await chatFrame(page).getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible', timeout: 60_000 });
      await page.waitForTimeout(500); // the webview repaints with the theme's colours
      await screenshot(page, `switchboard-view-${kind}`);
    });
  }
});
