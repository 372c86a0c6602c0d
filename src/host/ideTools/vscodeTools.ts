// The IDE tools answered from VS Code for one session: diagnostics, symbols, definitions, references and
// hovers from the language extensions (through the execute*Provider commands, so unsaved buffers count), the
// open tabs and the active selection. A path must be absolute and inside the session's folders (symlinks
// resolved, as for fs/read_text_file); answers outside those folders (symlinks resolved too) are left out and counted.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { isInsideRoot, resolveRealPath, type SessionRoots } from '../fs/fileConfinement';
import type { IdeToolsBackend, Location, Range, ToolInput, ToolName, ToolOutput } from './toolSchemas';

const SEVERITY = ['error', 'warning', 'information', 'hint'] as const;
/** How long `diagnostics` waits for the first report on a file it had to open. */
const FIRST_REPORT_WAIT_MS = 2_000;

function rangeOf(r: vscode.Range): Range {
  return { start: { line: r.start.line + 1, character: r.start.character + 1 }, end: { line: r.end.line + 1, character: r.end.character + 1 } };
}

function symbolKind(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? 'Unknown').toLowerCase();
}

function hoverText(content: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof content === 'string') return content;
  if (content instanceof vscode.MarkdownString) return content.value;
  return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
}

type Handlers = { [K in ToolName]: (args: ToolInput<K>) => Promise<ToolOutput<K>> };

export class VSCodeIdeTools implements IdeToolsBackend {
  private realRoots: Promise<string[]> | undefined;
  private readonly handlers: Handlers = {
    diagnostics: (a) => this.diagnostics(a),
    document_symbols: (a) => this.documentSymbols(a),
    workspace_symbols: (a) => this.workspaceSymbols(a),
    definition: (a) => this.definition(a),
    references: (a) => this.references(a),
    hover: (a) => this.hover(a),
    open_editors: () => this.openEditors(),
    selection: () => this.selection(),
  };

  constructor(private readonly roots: SessionRoots) {}

  call<K extends ToolName>(name: K, args: ToolInput<K>): Promise<ToolOutput<K>> {
    const handler = this.handlers[name] as (a: ToolInput<K>) => Promise<ToolOutput<K>>;
    return handler(args);
  }

  private get folders(): string[] {
    return [this.roots.cwd, ...(this.roots.additionalDirectories ?? [])].filter((d) => nodePath.isAbsolute(d));
  }

  /** The file's URI when it is inside the session's folders; else an error the agent reads. */
  private async file(path: string): Promise<vscode.Uri> {
    if (!nodePath.isAbsolute(path) || path.includes('\0')) {
      throw new Error(`The path must be absolute (the session's folder is ${this.roots.cwd}): ${JSON.stringify(path)}`);
    }
    const real = await resolveRealPath(path);
    if (!(await this.realFolders()).some((root) => isInsideRoot(root, real))) {
      throw new Error(`${path} is outside the session's folders (${this.folders.join(', ')}).`);
    }
    return vscode.Uri.file(nodePath.resolve(path));
  }

  private realFolders(): Promise<string[]> {
    this.realRoots ??= Promise.all(this.folders.map((d) => resolveRealPath(d)));
    return this.realRoots;
  }

  /** The answers whose files may be shown: file URIs inside the session's folders once symlinks are resolved. */
  private async shown<T>(items: readonly T[], uriOf: (item: T) => vscode.Uri): Promise<T[]> {
    const roots = await this.realFolders();
    const verdicts = new Map<string, Promise<boolean>>();
    const inside = (uri: vscode.Uri) => {
      if (uri.scheme !== 'file') return Promise.resolve(false);
      let verdict = verdicts.get(uri.fsPath);
      if (!verdict) {
        verdict = resolveRealPath(uri.fsPath).then((real) => roots.some((root) => isInsideRoot(root, real)), () => false);
        verdicts.set(uri.fsPath, verdict);
      }
      return verdict;
    };
    const keep = await Promise.all(items.map((item) => inside(uriOf(item))));
    return items.filter((_, i) => keep[i]);
  }

  private async document(path: string): Promise<vscode.TextDocument> {
    const uri = await this.file(path);
    try {
      return await vscode.workspace.openTextDocument(uri);
    } catch (error) {
      throw new Error(`VS Code cannot open ${path} as text: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  private async position(args: { path: string; line: number; character: number }): Promise<{ document: vscode.TextDocument; position: vscode.Position }> {
    const document = await this.document(args.path);
    if (args.line > document.lineCount) throw new Error(`Line ${args.line} is past the end of ${args.path} (${document.lineCount} lines).`);
    const length = document.lineAt(args.line - 1).text.length;
    if (args.character > length + 1) throw new Error(`Character ${args.character} is past the end of line ${args.line} (${length} characters).`);
    return { document, position: new vscode.Position(args.line - 1, args.character - 1) };
  }

  private async locations(found: readonly (vscode.Location | vscode.LocationLink)[] | undefined): Promise<{ locations: Location[]; outsideFolders?: number }> {
    const all = (found ?? []).map((l) => ('targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange } : l));
    const shown = await this.shown(all, (l) => l.uri);
    const result: { locations: Location[]; outsideFolders?: number } = { locations: shown.map((l) => ({ path: l.uri.fsPath, range: rangeOf(l.range) })) };
    if (shown.length < all.length) result.outsideFolders = all.length - shown.length;
    return result;
  }

  private async diagnostics(args: ToolInput<'diagnostics'>): Promise<ToolOutput<'diagnostics'>> {
    let entries: [vscode.Uri, readonly vscode.Diagnostic[]][];
    if (args.path) {
      const uri = await this.file(args.path);
      await this.openForDiagnostics(uri);
      entries = [[uri, vscode.languages.getDiagnostics(uri)]];
      if (entries[0][1].length === 0 && !this.inTab(uri)) {
        return { diagnostics: [], note: `${args.path} is not open in an editor tab; some language extensions check only the files open in tabs, so it may have problems VS Code has not reported.` };
      }
    } else {
      entries = await this.shown(vscode.languages.getDiagnostics(), ([uri]) => uri);
    }
    const diagnostics = entries.flatMap(([uri, list]) =>
      list.map((d) => ({
        path: uri.fsPath,
        range: rangeOf(d.range),
        severity: SEVERITY[d.severity] ?? 'error',
        message: d.message,
        ...(d.source ? { source: d.source } : {}),
        ...(d.code !== undefined ? { code: String(typeof d.code === 'object' ? d.code.value : d.code) } : {}),
      })),
    );
    diagnostics.sort((a, b) => SEVERITY.indexOf(a.severity) - SEVERITY.indexOf(b.severity));
    return { diagnostics };
  }

  private inTab(uri: vscode.Uri): boolean {
    return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()));
  }

  /**
   * Language servers check the documents that are open: a file that is not gets opened (not shown), and its
   * first report is waited for, briefly, since a file without problems may never report.
   */
  private async openForDiagnostics(uri: vscode.Uri): Promise<void> {
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) return;
    let subscription: vscode.Disposable | undefined;
    const reported = new Promise<void>((resolve) => {
      subscription = vscode.languages.onDidChangeDiagnostics((e) => e.uris.some((u) => u.toString() === uri.toString()) && resolve());
    });
    try {
      await vscode.workspace.openTextDocument(uri).then(undefined, () => undefined);
      await Promise.race([reported, new Promise((resolve) => setTimeout(resolve, FIRST_REPORT_WAIT_MS))]);
    } finally {
      subscription?.dispose();
    }
  }

  private async documentSymbols(args: ToolInput<'document_symbols'>): Promise<ToolOutput<'document_symbols'>> {
    const document = await this.document(args.path);
    const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', document.uri);
    const symbols: ToolOutput<'document_symbols'>['symbols'] = [];
    const visit = (s: vscode.DocumentSymbol | vscode.SymbolInformation, container?: string) => {
      const range = 'location' in s ? s.location.range : s.range;
      symbols.push({ name: s.name, kind: symbolKind(s.kind), ...('detail' in s && s.detail ? { detail: s.detail } : {}), ...(container ? { container } : {}), range: rangeOf(range) });
      if ('children' in s) for (const child of s.children ?? []) visit(child, s.name);
    };
    for (const s of found ?? []) visit(s, 'containerName' in s && s.containerName ? s.containerName : undefined);
    return { symbols };
  }

  private async workspaceSymbols(args: ToolInput<'workspace_symbols'>): Promise<ToolOutput<'workspace_symbols'>> {
    const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', args.query)) ?? [];
    const shown = await this.shown(found, (s) => s.location.uri);
    return {
      symbols: shown.map((s) => ({ name: s.name, kind: symbolKind(s.kind), ...(s.containerName ? { container: s.containerName } : {}), path: s.location.uri.fsPath, range: rangeOf(s.location.range) })),
      ...(shown.length < found.length ? { outsideFolders: found.length - shown.length } : {}),
    };
  }

  private async definition(args: ToolInput<'definition'>): Promise<ToolOutput<'definition'>> {
    const { document, position } = await this.position(args);
    return await this.locations(await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', document.uri, position));
  }

  private async references(args: ToolInput<'references'>): Promise<ToolOutput<'references'>> {
    const { document, position } = await this.position(args);
    const found = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', document.uri, position, {
      includeDeclaration: args.includeDeclaration ?? true,
    });
    return await this.locations(found);
  }

  private async hover(args: ToolInput<'hover'>): Promise<ToolOutput<'hover'>> {
    const { document, position } = await this.position(args);
    const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, position)) ?? [];
    const contents = hovers.flatMap((h) => h.contents.map(hoverText)).filter((t) => t.trim() !== '');
    const range = hovers.find((h) => h.range)?.range;
    return { contents, ...(range ? { range: rangeOf(range) } : {}) };
  }

  private async openEditors(): Promise<ToolOutput<'open_editors'>> {
    const documents = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    const tabs = vscode.window.tabGroups.all.flatMap((group) =>
      group.tabs.flatMap((tab) => {
        const input = tab.input;
        const uri = input instanceof vscode.TabInputText ? input.uri : input instanceof vscode.TabInputTextDiff ? input.modified : input instanceof vscode.TabInputNotebook ? input.uri : undefined;
        return uri ? [{ uri, tab, group }] : [];
      }),
    );
    const shown = await this.shown(tabs, (t) => t.uri);
    const editors = shown.map(({ uri, tab, group }) => {
      const languageId = documents.get(uri.toString())?.languageId;
      return { path: uri.fsPath, ...(languageId ? { languageId } : {}), dirty: tab.isDirty, active: tab.isActive && group.isActive, group: group.viewColumn };
    });
    return { editors, ...(shown.length < tabs.length ? { outsideFolders: tabs.length - shown.length } : {}) };
  }

  private async selection(): Promise<ToolOutput<'selection'>> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return { selections: [], message: 'No text editor is active.' };
    if ((await this.shown([editor.document.uri], (u) => u)).length === 0) return { selections: [], message: "The active editor's file is not in the session's folders." };
    const { document } = editor;
    const selections = editor.selections.map((s) => ({ range: rangeOf(s), text: document.getText(s) }));
    return { path: document.uri.fsPath, languageId: document.languageId, selections };
  }
}
