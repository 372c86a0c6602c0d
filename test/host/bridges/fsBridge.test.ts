// fs/read_text_file and fs/write_text_file against the real VS Code API (no agent involved).
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FsBridge, type UnsavedChangesOverwritten } from '../../../src/host/fs/fsBridge';
import { WriteHistory } from '../../../src/host/fs/writeHistory';
import { bridgeError, makeSandbox, type Sandbox } from './helpers';

const S = 'sess-1';

describe('bridges: fs', () => {
  let box: Sandbox;
  let history: WriteHistory;
  let bridge: FsBridge;

  beforeEach(() => {
    box = makeSandbox();
    history = new WriteHistory();
    bridge = new FsBridge({ confinement: box.confinement, sensitive: box.sensitive, history });
  });
  afterEach(async () => {
    // Revert dirty documents first: closing a dirty editor would wait on a "Save?" dialog.
    for (const d of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
      await vscode.window.showTextDocument(d);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    bridge.dispose();
    box.dispose();
  });

  const file = (name: string, text?: string): string => {
    const p = path.join(box.root, name);
    if (text !== undefined) {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, text);
    }
    return p;
  };

  async function makeDirty(p: string, text: string): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(p);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    return doc;
  }

  it('a read of a dirty buffer returns its unsaved text', async () => {
    const p = file('dirty.txt', 'on disk\n');
    await makeDirty(p, 'unsaved 1\nunsaved 2\nunsaved 3\n');
    assert.strictEqual((await bridge.readTextFile({ sessionId: S, path: p }, box.context)).content, 'unsaved 1\nunsaved 2\nunsaved 3\n');
    assert.strictEqual((await bridge.readTextFile({ sessionId: S, path: p, line: 2, limit: 1 }, box.context)).content, 'unsaved 2\n');
  });

  it('windowed reads from disk and from an open document agree', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ü😀`).join('\n') + '\n';
    const p = file('big.txt', text);
    const fromDisk = await bridge.readTextFile({ sessionId: S, path: p, line: 4000, limit: 3 }, box.context);
    assert.strictEqual(fromDisk.content, 'line 4000 ü😀\nline 4001 ü😀\nline 4002 ü😀\n');
    await vscode.workspace.openTextDocument(p);
    const fromDoc = await bridge.readTextFile({ sessionId: S, path: p, line: 4000, limit: 3 }, box.context);
    assert.strictEqual(fromDoc.content, fromDisk.content);
    assert.strictEqual((await bridge.readTextFile({ sessionId: S, path: p, line: 5000, limit: 10 }, box.context)).content, 'line 5000 ü😀\n');
    assert.strictEqual((await bridge.readTextFile({ sessionId: S, path: p }, box.context)).content, text);
  });

  it('missing file -32002; relative path and directory -32602; binary refused', async () => {
    await assert.rejects(bridge.readTextFile({ sessionId: S, path: path.join(box.root, 'nope.txt') }, box.context), bridgeError(-32002, 'not_found'));
    await assert.rejects(bridge.readTextFile({ sessionId: S, path: 'src/x.ts' }, box.context), bridgeError(-32602, 'relative_path'));
    await assert.rejects(bridge.readTextFile({ sessionId: S, path: box.root }, box.context), bridgeError(-32602, 'is_directory'));
    const bin = path.join(box.root, 'img.bin');
    fs.writeFileSync(bin, Buffer.from([0x89, 0x50, 0, 0, 1, 0, 0, 2]));
    await assert.rejects(bridge.readTextFile({ sessionId: S, path: bin }, box.context), bridgeError(-32602, 'binary_file'));
  });

  it('a write is saved to disk, recorded with what it replaced, and undone by Ctrl+Z (undo)', async () => {
    const p = file('edit.ts', 'const a = 1;\nconst b = 2;\n');
    const doc = await vscode.workspace.openTextDocument(p);
    await vscode.window.showTextDocument(doc);
    await bridge.writeTextFile({ sessionId: S, path: p, content: 'const a = 1;\nconst b = 3;\n' }, box.context);
    assert.strictEqual(fs.readFileSync(p, 'utf8'), 'const a = 1;\nconst b = 3;\n');
    assert.strictEqual(doc.getText(), 'const a = 1;\nconst b = 3;\n');
    assert.strictEqual(history.baseline(S, 'turn-1', p)?.before, 'const a = 1;\nconst b = 2;\n');
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(doc.getText(), 'const a = 1;\nconst b = 2;\n');
  });

  it('a write to a file that is not open also lands in the document and can be undone', async () => {
    const p = file('closed.txt', 'old\n');
    await bridge.writeTextFile({ sessionId: S, path: p, content: 'new\n' }, box.context);
    assert.strictEqual(fs.readFileSync(p, 'utf8'), 'new\n');
    const doc = await vscode.workspace.openTextDocument(p);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(doc.getText(), 'old\n');
  });

  it('a write creates the file and its folders', async () => {
    const p = path.join(box.root, 'a', 'b', 'c', 'new.md');
    await bridge.writeTextFile({ sessionId: S, path: p, content: '# hi\n' }, box.context);
    assert.strictEqual(fs.readFileSync(p, 'utf8'), '# hi\n');
    const rec = history.baseline(S, 'turn-1', p);
    assert.strictEqual(rec?.before, null);
  });

  // OpenCode with permission "ask" writes a new file itself and sends fs/write_text_file without waiting:
  // its own write can land between our "missing?" check and the create. Here it lands exactly there.
  for (const [label, onDisk] of [['the same text', 'export const x = 1;\n'], ['other text', 'stale 1\nstale 2\n']] as const) {
    it(`a write to a new file the agent wrote itself in between (${label}) sets the whole content once, as an added file`, async () => {
      const p = path.join(box.root, 'race', `new-${onDisk.length}.ts`);
      const content = 'export const x = 1;\n';
      const agentWrites = vscode.workspace.onWillCreateFiles((e) => {
        if (!e.files.some((f) => f.fsPath === p)) return;
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, onDisk);
      });
      try {
        await bridge.writeTextFile({ sessionId: S, path: p, content }, box.context);
      } finally {
        agentWrites.dispose();
      }
      assert.strictEqual(fs.readFileSync(p, 'utf8'), content, 'the whole content, not inserted into what the agent wrote');
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === p);
      assert.strictEqual(doc?.getText(), content);
      assert.strictEqual(doc?.isDirty, false);
      assert.strictEqual(history.baseline(S, 'turn-1', p)?.before, null, 'recorded as added: Undo deletes it');
    });
  }

  it("a write over unsaved user edits keeps them: history, conflict event, and undo", async () => {
    const p = file('conflict.txt', 'saved\n');
    const doc = await makeDirty(p, 'saved\nuser typing\n');
    await vscode.window.showTextDocument(doc);
    const events: UnsavedChangesOverwritten[] = [];
    const sub = bridge.onDidOverwriteUnsavedChanges((e) => events.push(e));
    await bridge.writeTextFile({ sessionId: S, path: p, content: 'agent\n' }, box.context);
    sub.dispose();
    assert.strictEqual(fs.readFileSync(p, 'utf8'), 'agent\n');
    assert.strictEqual(events.length, 1);
    assert.strictEqual(events[0].userText, 'saved\nuser typing\n');
    assert.strictEqual(events[0].diskText, 'saved\n');
    assert.strictEqual(history.latest(S, p)?.hadUnsavedChanges, true);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(doc.getText(), 'saved\nuser typing\n');
  });

  it('a write outside the session folders asks the user first; no means -32602 and no file', async () => {
    const p = path.join(box.outside, 'out.txt');
    box.answer = false;
    await assert.rejects(bridge.writeTextFile({ sessionId: S, path: p, content: 'x' }, box.context), bridgeError(-32602, 'access_denied'));
    assert.strictEqual(box.questions.length, 1);
    assert.strictEqual(box.questions[0].op, 'write');
    assert.strictEqual(box.questions[0].realPath, p);
    assert.ok(!fs.existsSync(p));
    box.answer = true;
    await bridge.writeTextFile({ sessionId: S, path: p, content: 'x' }, box.context);
    assert.strictEqual(box.questions.length, 2);
    assert.strictEqual(fs.readFileSync(p, 'utf8'), 'x');
  });

  it('reads through a symlink that leaves the folder ask too', async () => {
    fs.writeFileSync(path.join(box.outside, 'secret'), 'x');
    fs.symlinkSync(box.outside, path.join(box.root, 'link'));
    await assert.rejects(bridge.readTextFile({ sessionId: S, path: path.join(box.root, 'link', 'secret') }, box.context), bridgeError(-32602, 'access_denied'));
    assert.strictEqual(box.questions[0].realPath, path.join(box.outside, 'secret'));
  });

  it('writing a directory path is -32602', async () => {
    await assert.rejects(bridge.writeTextFile({ sessionId: S, path: box.root, content: 'x' }, box.context), bridgeError(-32602, 'is_directory'));
  });
});
