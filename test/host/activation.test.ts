// The extension activates in a real VS Code 1.100 and contributes what package.json promises.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { setSettings, switchboardExtension, waitFor } from './index';

interface Manifest {
  activationEvents?: string[];
  contributes: {
    commands: { command: string }[];
    viewsContainers: { activitybar: { id: string }[] };
    views: Record<string, { id: string; type?: string }[]>;
    configuration: { properties: Record<string, { default?: unknown }> };
    walkthroughs: { id: string; steps: { id: string; description: string; media: { markdown?: string }; completionEvents?: string[] }[] }[];
  };
}

const underCodeServer = (): boolean =>
  process.env.SWITCHBOARD_TEST_HOST === 'code-server' || /code-server/i.test(vscode.env.appName);

describe('activation', () => {
  let manifest: Manifest;

  before(() => {
    manifest = switchboardExtension().packageJSON as Manifest;
  });

  it('runs in VS Code 1.100.x (code-server 4.100.3)', function () {
    if (!underCodeServer()) {
      // Under @vscode/test-electron the version is whatever was downloaded.
      this.skip();
    }
    assert.match(vscode.version, /^1\.100\./, `vscode.version is ${vscode.version}`);
  });

  it('has the extension switchboard-dev.switchboard, activated lazily (never on "*")', () => {
    const ext = switchboardExtension();
    assert.strictEqual(ext.id, 'switchboard-dev.switchboard');
    const events = manifest.activationEvents ?? [];
    assert.ok(!events.includes('*'), 'activationEvents must not contain "*"');
    assert.ok(!events.includes('onStartupFinished'), 'activationEvents must not contain onStartupFinished');
  });

  it('contributes the switchboard view container with the switchboard.chat webview view', async () => {
    const container = manifest.contributes.viewsContainers.activitybar.find((c) => c.id === 'switchboard');
    assert.ok(container, 'activity bar view container "switchboard"');
    const chat = (manifest.contributes.views.switchboard ?? []).find((v) => v.id === 'switchboard.chat');
    assert.ok(chat, 'view switchboard.chat in container switchboard');
    assert.strictEqual(chat.type, 'webview');
    // VS Code registered the view: it generates a focus command for every contributed view.
    const all = await vscode.commands.getCommands(true);
    assert.ok(all.includes('switchboard.chat.focus'), 'VS Code has the generated command switchboard.chat.focus');
  });

  it('activates when the chat view is opened', async () => {
    const ext = switchboardExtension();
    await vscode.commands.executeCommand('switchboard.chat.focus');
    await waitFor(() => ext.isActive, 'the extension to activate after focusing switchboard.chat', 20_000);
  });

  it('registers every command that package.json contributes', async () => {
    await waitFor(() => switchboardExtension().isActive, 'activation', 20_000);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('contributes a Get Started walkthrough whose steps link to contributed commands and ship their pages', async () => {
    const walkthrough = manifest.contributes.walkthroughs.find((w) => w.id === 'getStarted');
    assert.ok(walkthrough, 'walkthrough getStarted');
    assert.deepStrictEqual(walkthrough.steps.map((s) => s.id), ['pickAgent', 'signIn', 'firstPrompt', 'reviewDiff']);
    const commands = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const step of walkthrough.steps) {
      const linked = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
      const events = (step.completionEvents ?? []).filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length));
      assert.ok(linked.length > 0, `${step.id} links to a command`);
      for (const c of [...linked, ...events]) assert.ok(commands.has(c), `${step.id}: ${c} is a contributed command`);
      assert.ok(step.media.markdown, `${step.id} has a page`);
      const page = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(switchboardExtension().extensionUri, step.media.markdown));
      assert.match(Buffer.from(page).toString('utf8'), /^# /, `${step.media.markdown} is shipped`);
    }
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${switchboardExtension().id}#getStarted`, false);
  });

  it('runs switchboard.showProtocolLog', async () => {
    await vscode.commands.executeCommand('switchboard.showProtocolLog');
    assert.ok(switchboardExtension().isActive);
  });

  it('contributes switchboard.agents, switchboard.defaultAgent and switchboard.trace with their defaults', () => {
    const config = vscode.workspace.getConfiguration('switchboard');
    const expected: [string, unknown][] = [
      ['agents', {}],
      ['defaultAgent', ''],
      ['trace', 'off'],
    ];
    for (const [name, value] of expected) {
      const inspected = config.inspect(name);
      assert.ok(inspected, `switchboard.${name} is a registered setting`);
      assert.deepStrictEqual(inspected.defaultValue, value, `default of switchboard.${name}`);
      assert.deepStrictEqual(manifest.contributes.configuration.properties[`switchboard.${name}`]?.default, value);
    }
  });

  it('lets a test set switchboard.* settings through the API and restore them', async () => {
    const restore = await setSettings({ 'switchboard.trace': 'verbose', 'switchboard.defaultAgent': 'Demo' });
    try {
      const config = vscode.workspace.getConfiguration('switchboard');
      assert.strictEqual(config.get('trace'), 'verbose');
      assert.strictEqual(config.get('defaultAgent'), 'Demo');
    } finally {
      await restore();
    }
    const config = vscode.workspace.getConfiguration('switchboard');
    assert.strictEqual(config.get('trace'), 'off');
    assert.strictEqual(config.get('defaultAgent'), '');
  });
});
