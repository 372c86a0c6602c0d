// The local transcript store with the real vscode.workspace.fs: the transcripts stay findable when the
// next extension host of the workspace is given another storageUri (VS Code hands out `<id>-1` while the
// last host still holds the lock of `<id>`, as in a reload), transcripts in the old storageUri folder are
// still read and deleted, a save leaves no partial file, and a bad folder name in the Memento or a
// stored file that is not a transcript gives a clear answer instead of a throw or a path outside.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { emptyTranscript, type Transcript } from '../../../src/shared/transcript';
import { TranscriptStore, type StoredSessionMeta } from '../../../src/host/session/tabs/transcriptStore';

class WorkspaceMemento implements vscode.Memento {
  private readonly data = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    const value = this.data.get(key);
    // Round-trips through JSON like workspaceState.
    return value === undefined ? defaultValue : (JSON.parse(JSON.stringify(value)) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, value);
  }
}

describe('transcript store', function () {
  let root: string;
  let memento: WorkspaceMemento;
  let log: vscode.LogOutputChannel;
  const globalStorage = () => vscode.Uri.file(path.join(root, 'globalStorage'));
  const workspaceStorage = (id: string) => vscode.Uri.file(path.join(root, 'workspaceStorage', id));
  const store = (storageId: string) => new TranscriptStore({ memento, globalStorage: globalStorage(), legacyStorage: workspaceStorage(storageId), log });

  const meta = (key: string): StoredSessionMeta => ({ key, agentId: 'Fake', acpSessionId: `acp-${key}`, title: `Title ${key}`, cwd: root, updatedAt: new Date().toISOString() });
  const transcriptSaying = (text: string): Transcript => ({
    ...emptyTranscript('acp'),
    items: [{ kind: 'user_message', id: 'u1', content: [{ type: 'text', text }] }],
  });
  const filesUnder = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) : []);

  before(() => {
    log = vscode.window.createOutputChannel('Switchboard transcript store test', { log: true });
  });
  after(() => log.dispose());
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-store-'));
    memento = new WorkspaceMemento();
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('the next extension host of the workspace finds the transcripts though its storageUri is <id>-1', async () => {
    await store('7ef1c351').save(meta('a'), transcriptSaying('kept across a reload'));

    const next = store('7ef1c351-1');
    assert.strictEqual(next.get('a')?.title, 'Title a');
    assert.deepStrictEqual((await next.load('a'))?.items, transcriptSaying('kept across a reload').items);
  });

  it('a save replaces the transcript whole and leaves no partial file behind', async () => {
    const s = store('ws');
    await s.save(meta('a'), transcriptSaying('first'));
    await s.save(meta('a'), transcriptSaying('second'));
    assert.deepStrictEqual((await s.load('a'))?.items, transcriptSaying('second').items);
    const files = filesUnder(path.join(root, 'globalStorage', 'transcripts'));
    assert.deepStrictEqual(files.filter((f) => f.endsWith('.json')).length, 1, files.join(', '));
    assert.ok(!files.some((f) => f.endsWith('.partial')), files.join(', '));
  });

  it('reads a transcript from the old storageUri folder, and deletes it there with its entry', async () => {
    const s = store('ws');
    const legacy = path.join(root, 'workspaceStorage', 'ws', 'transcripts');
    fs.mkdirSync(legacy, { recursive: true });
    fs.writeFileSync(path.join(legacy, 'old.json'), JSON.stringify(transcriptSaying('from before')));
    await memento.update('switchboard.history.v1', [meta('old')]);

    assert.deepStrictEqual((await s.load('old'))?.items, transcriptSaying('from before').items);
    await s.delete('old');
    assert.strictEqual(s.get('old'), undefined);
    assert.ok(!fs.existsSync(path.join(legacy, 'old.json')));
  });

  it('a folder name in the Memento that is not one it chose is replaced, never followed', async () => {
    await memento.update('switchboard.transcriptFolder.v1', '../../outside');
    await store('ws').save(meta('a'), transcriptSaying('inside'));
    assert.ok(!fs.existsSync(path.join(root, 'outside')));
    const folders = filesUnder(path.join(root, 'globalStorage', 'transcripts')).filter((f) => !f.includes(path.sep));
    assert.deepStrictEqual(folders, [memento.get('switchboard.transcriptFolder.v1')]);
  });

  it('a missing transcript or one that is not a transcript loads as nothing, with a warning', async () => {
    const s = store('ws');
    assert.strictEqual(await s.load('never-saved'), undefined);
    await s.save(meta('a'), transcriptSaying('x'));
    const folder = path.join(root, 'globalStorage', 'transcripts', String(memento.get('switchboard.transcriptFolder.v1')));
    fs.writeFileSync(path.join(folder, 'a.json'), '{"items": "not a list"}');
    assert.strictEqual(await s.load('a'), undefined);
    fs.writeFileSync(path.join(folder, 'a.json'), '{ cut off');
    assert.strictEqual(await s.load('a'), undefined);
  });
});
