// Add to Chat's bad inputs in a real extension host, through the command itself: each gives a clear notice
// beside the composer (what the chat shows) and no chip; nothing goes to the agent. Also: an empty selection
// gives the whole file; a file outside the session's folders follows switchboard.fileAccess; the quick fix
// `Ask <agent> to fix` is offered on a real diagnostic; chips that carry text go to an agent without
// embedded context as text.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { MentionRef } from '../../../src/shared/chatState';
import type { HostToWebviewMessage } from '../../../src/shared/messages';
import { attachedTextBlock, carriesText } from '../../../src/host/context/attachedText';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { withFakeAgents } from '../integration/helpers';

const AGENT = 'Context Agent';

interface ComposerRequest {
  mentions: MentionRef[];
  notice?: string;
}

describe('Add to Chat: bad inputs and the quick fix', function () {
  this.timeout(120_000);
  const ctx = withFakeAgents({ [AGENT]: [] });
  let dir = '';
  let outside = '';
  let restoreSettings: (() => Promise<void>) | undefined;
  let requests: ComposerRequest[] = [];
  let restorePost: (() => void) | undefined;

  before(async () => {
    restoreSettings = await setSettings({ 'switchboard.defaultAgent': AGENT });
    dir = path.join(workspaceRoot(), 'context-tests');
    fs.mkdirSync(dir, { recursive: true });
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-context-outside-'));
    // What the chat is told: the composer requests the webview gets (the real webview gets them too).
    const controller = ctx.sb.chat.controller;
    const post = controller.post.bind(controller);
    controller.post = (message: HostToWebviewMessage) => {
      if (message.type === 'focusComposer' && (message.mentions?.length || message.notice)) requests.push({ mentions: message.mentions ?? [], notice: message.notice });
      post(message);
    };
    restorePost = () => {
      controller.post = post;
    };
  });

  beforeEach(() => {
    requests = [];
  });

  after(async () => {
    restorePost?.();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const t of vscode.window.terminals) t.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
    await restoreSettings?.();
  });

  async function addToChat(...args: unknown[]): Promise<ComposerRequest> {
    const before = requests.length;
    await vscode.commands.executeCommand('switchboard.addToChat', ...args);
    return waitFor(() => requests[before], 'the composer request');
  }

  function file(name: string, content: string | Uint8Array, where = dir): vscode.Uri {
    const p = path.join(where, name);
    fs.writeFileSync(p, content);
    return vscode.Uri.file(p);
  }

  it('an empty selection adds the whole file', async () => {
    const uri = file('whole.txt', 'a\nb\nc\n');
    const editor = await vscode.window.showTextDocument(uri);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    const { mentions, notice } = await addToChat();
    assert.strictEqual(notice, undefined);
    assert.deepStrictEqual(mentions.map((m) => [m.kind, m.label, m.range]), [['file', 'whole.txt', undefined]]);
    assert.ok(ctx.sb.backend.sessions.activeTabId(), 'a session was opened for the chip');
  });

  it('a binary file is refused with a notice, the text file picked with it is added', async () => {
    const binary = file('image.bin', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
    const text = file('notes.txt', 'notes\n');
    const { mentions, notice } = await addToChat(binary, [binary, text]);
    assert.deepStrictEqual(mentions.map((m) => m.label), ['notes.txt']);
    assert.match(notice ?? '', /image\.bin was not added: it is a binary file/);
  });

  it('a file outside the session\'s folders is refused under fileAccess "deny" and added under "allow"', async () => {
    const far = file('far.txt', 'far away\n', outside);
    const restore = await setSettings({ 'switchboard.fileAccess': 'deny' });
    try {
      const denied = await addToChat(far, [far]);
      assert.deepStrictEqual(denied.mentions, []);
      assert.match(denied.notice ?? '', /far\.txt was not added: it is outside the session's folders and switchboard\.fileAccess is "deny"/);
    } finally {
      await restore();
    }
    const restoreAllow = await setSettings({ 'switchboard.fileAccess': 'allow' });
    try {
      const allowed = await addToChat(far, [far]);
      assert.deepStrictEqual(allowed.mentions.map((m) => m.label), ['far.txt']);
      assert.strictEqual(allowed.notice, undefined);
    } finally {
      await restoreAllow();
    }
  });

  it('a terminal with no selection gives a notice and no chip', async () => {
    const terminal = vscode.window.createTerminal({ name: 'No Selection' });
    terminal.show();
    await waitFor(() => vscode.window.activeTerminal === terminal, 'the terminal to be active');
    const { mentions, notice } = await addToChat(terminal);
    assert.deepStrictEqual(mentions, []);
    assert.match(notice ?? '', /Nothing was added from the terminal "No Selection": it has no selection/);
  });

  it('a change while Git is turned off (git.enabled: false, as the test host starts) gives a notice and no chip', async () => {
    assert.strictEqual(vscode.workspace.getConfiguration('git').get('enabled'), false, 'the test host starts with Git off');
    const uri = file('changed.txt', 'changed\n');
    const { mentions, notice } = await addToChat({ resourceUri: uri });
    assert.deepStrictEqual(mentions, []);
    assert.match(notice ?? '', /The change to changed\.txt was not added: Git is turned off in VS Code \(the setting git\.enabled\)/);
  });

  it('a problem VS Code no longer reports (its file closed) gives a notice and no chip', async () => {
    const uri = file('gone.json', '{}\n');
    // What the quick fix hands the command, for a problem that is gone by the time it runs.
    const problem = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'Expected comma', vscode.DiagnosticSeverity.Error);
    const { mentions, notice } = await addToChat(uri, problem);
    assert.deepStrictEqual(mentions, []);
    assert.match(notice ?? '', /The problem in gone\.json was not added: VS Code no longer reports it/);
  });

  it('offers "Ask <agent> to fix" on a real diagnostic, and adds it with its lines', async () => {
    const uri = file('broken.json', '{\n  "a": 1\n  "b": 2\n}\n');
    await vscode.window.showTextDocument(uri);
    const diagnostic = await waitFor(() => vscode.languages.getDiagnostics(uri)[0], 'the JSON syntax error', 60_000);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title === `Ask ${AGENT} to fix`);
    assert.ok(fix?.command, `the quick fix among ${actions.map((a) => a.title).join(', ')}`);
    const { mentions, notice } = await addToChat(...(fix.command.arguments ?? []));
    assert.strictEqual(notice, undefined);
    assert.strictEqual(mentions.length, 1);
    assert.strictEqual(mentions[0].kind, 'diagnostic');
    assert.match(mentions[0].text ?? '', new RegExp(`^Error.* at broken\\.json:${diagnostic.range.start.line + 1}:`));
    assert.match(mentions[0].text ?? '', /"a": 1/);
  });

  // Last: Git, once turned on, stays on in this extension host.
  it('a change outside any Git repository gives a notice and no chip', async () => {
    const uri = file('untracked.txt', 'not in git\n', outside);
    const restore = await setSettings({ 'git.enabled': true });
    try {
      // Git starts its model when turned on: until then the notice says it is off.
      const { mentions, notice } = await waitFor(async () => {
        const r = await addToChat({ resourceUri: uri });
        return /Git is turned off/.test(r.notice ?? '') ? undefined : r;
      }, 'Git to start', 60_000);
      assert.deepStrictEqual(mentions, []);
      assert.match(notice ?? '', /The change to untracked\.txt was not added: it is not in a Git repository VS Code has open/);
    } finally {
      await restore();
    }
  });

  it('chips that carry text go to an agent without embedded context as text blocks that name them', () => {
    const mention: MentionRef = { kind: 'terminalSelection', uri: 'terminal:bash', label: 'bash (1 line)', text: '$ ls\nREADME.md', attached: true };
    assert.ok(carriesText(mention));
    const block = attachedTextBlock({ ...mention, text: '$ ls\nREADME.md' }, false);
    assert.ok(block.type === 'text' && block.text.includes('$ ls\nREADME.md') && block.text.startsWith('Terminal selection: bash (1 line)'));
    const embedded = attachedTextBlock({ ...mention, text: '$ ls' }, true);
    assert.ok(embedded.type === 'resource' && embedded.resource.mimeType === 'text/plain');
  });
});
