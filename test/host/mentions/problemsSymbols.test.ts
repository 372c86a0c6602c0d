// `@` Problems and Symbols through the real backend: the picker offers them, the agent gets them as a
// `resource` (embedded context) or as text / a link (without), and what no longer holds is refused.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { workspaceRoot } from '../index';
import { candidates, ref, resourceOf, sendAndReceive, sendRefused, withRecordingAgents } from './helpers';

describe('@ mentions: Problems and Symbols', function () {
  this.timeout(120_000);
  const { context, record, agents } = withRecordingAgents('Problems');
  const disposables: vscode.Disposable[] = [];
  after(() => disposables.forEach((d) => d.dispose()));

  async function openFile(name: string, text: string): Promise<vscode.TextDocument> {
    const file = path.join(workspaceRoot(), name);
    fs.writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    return doc;
  }

  it("@Problems: the active file's problems with source, code, severity, position and the line, as a resource or as text", async () => {
    // Plain text, so that no language extension adds problems of its own to the count.
    const doc = await openFile('problems-a.txt', 'const ok = 1;\nconst broken: number = "text";\n');
    const collection = vscode.languages.createDiagnosticCollection('mentions-test');
    disposables.push(collection);
    const d = new vscode.Diagnostic(new vscode.Range(1, 6, 1, 12), "Type 'string' is not assignable to type 'number'.", vscode.DiagnosticSeverity.Error);
    d.source = 'ts';
    d.code = 2322;
    collection.set(doc.uri, [d, new vscode.Diagnostic(new vscode.Range(0, 6, 0, 8), 'ok is never read', vscode.DiagnosticSeverity.Warning)]);

    const found = await candidates(context.sb, 'problems');
    const fileProblems = found.find((c) => c.kind === 'problems' && c.uri === doc.uri.toString());
    assert.ok(fileProblems, `the active file's problems are offered: ${JSON.stringify(found.filter((c) => c.kind === 'problems'))}`);
    assert.ok(found.some((c) => c.kind === 'problems' && c.uri === vscode.workspace.workspaceFolders![0].uri.toString()), "and the workspace's");

    const embedding = await context.sb.backend.lifecycle.open(agents.embedder);
    const resource = resourceOf(await sendAndReceive(context.sb, record.embedder, embedding, 'fix these', [ref(fileProblems)]));
    assert.strictEqual(resource.mimeType, 'text/markdown');
    assert.match(resource.uri, /^switchboard:\/\/problems\//);
    assert.match(resource.text ?? '', /2 problems in problems-a\.txt/);
    assert.match(resource.text ?? '', /Error at problems-a\.txt:2:7 \(ts 2322\): Type 'string' is not assignable to type 'number'\./);
    assert.match(resource.text ?? '', /const broken: number = "text";/, 'with the line it points at');
    assert.ok((resource.text ?? '').indexOf('Error') < (resource.text ?? '').indexOf('Warning'), 'errors first');

    const linking = await context.sb.backend.lifecycle.open(agents.linker);
    const blocks = await sendAndReceive(context.sb, record.linker, linking, 'fix these', [ref(fileProblems)]);
    assert.ok(!blocks.some((b) => b.type === 'resource'), 'no resource for an agent without embedded context');
    const text = blocks.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
    assert.match(text, /@problems:problems-a\.txt:\n2 problems in problems-a\.txt/);

    const workspace = found.find((c) => c.kind === 'problems' && c.uri === vscode.workspace.workspaceFolders![0].uri.toString())!;
    const all = resourceOf(await sendAndReceive(context.sb, record.embedder, embedding, 'and these', [ref(workspace)]));
    assert.match(all.text ?? '', /problems-a\.txt:2:7/, "the workspace's problems include the file's");
  });

  it('@Symbols: the workspace symbol provider as the user types; the symbol is read where it is when sent, and refused once gone', async () => {
    const doc = await openFile('symbols-a.ts', '// helpers\nexport function greetVisitor(name: string) {\n  return `hi ${name}`;\n}\n');
    // A language extension's workspace symbols: functions in open TypeScript documents, from their live text.
    disposables.push(
      vscode.languages.registerWorkspaceSymbolProvider({
        provideWorkspaceSymbols(query) {
          const out: vscode.SymbolInformation[] = [];
          for (const d of vscode.workspace.textDocuments.filter((t) => t.fileName.endsWith('symbols-a.ts'))) {
            const text = d.getText();
            for (const m of text.matchAll(/function (\w+)[^]*?\n}/g)) {
              if (!m[1].toLowerCase().includes(query.toLowerCase())) continue;
              const range = new vscode.Range(d.positionAt(m.index!), d.positionAt(m.index! + m[0].length));
              out.push(new vscode.SymbolInformation(m[1], vscode.SymbolKind.Function, '', new vscode.Location(d.uri, range)));
            }
          }
          return out;
        },
      }),
    );
    const found = await candidates(context.sb, 'greetVis');
    const symbol = found.find((c) => c.kind === 'symbol' && c.label === 'greetVisitor');
    assert.ok(symbol, `the symbol is offered: ${JSON.stringify(found.filter((c) => c.kind === 'symbol'))}`);
    assert.deepStrictEqual(symbol.range, { startLine: 2, endLine: 4 });

    // It moves down two lines before the message goes: the agent gets it where it is now.
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// one\n// two\n'));
    const embedding = await context.sb.backend.lifecycle.open(agents.embedder);
    const resource = resourceOf(await sendAndReceive(context.sb, record.embedder, embedding, 'explain', [ref(symbol)]));
    assert.strictEqual(resource.uri, `${doc.uri.toString()}#L4-L6`);
    assert.strictEqual(resource.mimeType, 'text/x-typescript');
    assert.strictEqual(resource.text, 'export function greetVisitor(name: string) {\n  return `hi ${name}`;\n}');

    const linking = await context.sb.backend.lifecycle.open(agents.linker);
    const link = (await sendAndReceive(context.sb, record.linker, linking, 'explain', [ref(symbol)])).find((b) => b.type === 'resource_link');
    assert.strictEqual(link?.uri, `${doc.uri.toString()}#L4-L6`, 'a link to its lines without embedded context');

    // Renamed: it no longer resolves.
    await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(doc.getText().indexOf('greetVisitor')), doc.positionAt(doc.getText().indexOf('greetVisitor') + 12)), 'welcomeVisitor'));
    await sendRefused(context.sb, record.embedder, embedding, [ref(symbol)], /the symbol @greetVisitor is no longer in symbols-a\.ts/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
