// Shared by the `@` mention host tests: fake agents that record what they get, and what arrived.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SwitchboardApi } from '../../../src/extension';
import type { ImageAttachment, MentionCandidate, MentionRef } from '../../../src/shared/chatState';
import type { ComposerPrompt } from '../../../src/shared/messages';
import { transcriptOf, withFakeAgents } from '../integration/helpers';

export interface Block {
  type: string;
  text?: string;
  uri?: string;
  name?: string;
  mimeType?: string;
  resource?: { uri: string; text?: string; mimeType?: string };
}

/**
 * `<group> Embedder` announces embeddedContext, `<group> Linker` does not (`--minimal-caps`); both record
 * every request. Named per describe block: an agent started by another block keeps its own record file.
 */
export function withRecordingAgents(group: string): { context: { sb: SwitchboardApi }; record: { embedder: string; linker: string }; agents: { embedder: string; linker: string } } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-mentions-'));
  const record = { embedder: path.join(dir, 'embedder.jsonl'), linker: path.join(dir, 'linker.jsonl') };
  const agents = { embedder: `${group} Embedder`, linker: `${group} Linker` };
  const context = withFakeAgents({ [agents.embedder]: [`--record=${record.embedder}`], [agents.linker]: ['--minimal-caps', `--record=${record.linker}`] });
  return { context, record, agents };
}

/** Every session/prompt the agent got, in order, as its content blocks. */
export function promptsIn(file: string): Block[][] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method: string; params: { prompt?: Block[] } })
    .filter((m) => m.method === 'session/prompt')
    .map((m) => m.params.prompt ?? []);
}

/** Sends `text` with `mentions` and returns the blocks the agent got for it (asserting it got exactly one prompt). */
export async function sendAndReceive(sb: SwitchboardApi, file: string, sessionId: string, text: string, mentions: MentionRef[]): Promise<Block[]> {
  const before = promptsIn(file).length;
  await sb.backend.sessions.require(sessionId).prompt({ text, mentions, images: [] });
  const prompts = promptsIn(file);
  assert.strictEqual(prompts.length, before + 1, `the agent got the message: ${JSON.stringify(transcriptOf(sb, sessionId).items.slice(-3))}`);
  return prompts[prompts.length - 1];
}

/** Sends (with `images`, if any) and asserts nothing reached the agent and the chat says `message` (with a way forward). */
export async function sendRefused(sb: SwitchboardApi, file: string, sessionId: string, mentions: MentionRef[], message: RegExp, images: ImageAttachment[] = []): Promise<{ message: string; detail?: string }> {
  const before = promptsIn(file).length;
  const items = transcriptOf(sb, sessionId).items.length;
  const returned: { tabId: string; prompt: ComposerPrompt }[] = [];
  const listening = sb.backend.sessions.onDidRefusePrompt((e) => returned.push(e));
  const prompt = { text: 'please look', mentions, images };
  try {
    await sb.backend.sessions.require(sessionId).prompt(prompt);
  } finally {
    listening.dispose();
  }
  assert.strictEqual(promptsIn(file).length, before, 'nothing was sent to the agent');
  assert.deepStrictEqual(returned, [{ tabId: sessionId, prompt }], 'the message goes back into the composer');
  const added = transcriptOf(sb, sessionId).items.slice(items);
  assert.ok(!added.some((i) => i.kind === 'user_message'), `no half-sent message in the chat: ${JSON.stringify(added)}`);
  const errors = added.filter((i): i is Extract<typeof i, { kind: 'error' }> => i.kind === 'error');
  assert.strictEqual(errors.length, 1, `said once in the chat: ${JSON.stringify(added)}`);
  assert.match(errors[0].message, message);
  assert.match(errors[0].detail ?? '', /Your message is back in the message box\.$/, 'with the way forward');
  const view = sb.backend.sessions.snapshots().find((s) => s.view.sessionId === sessionId)?.view;
  assert.strictEqual(view?.turn, 'idle', 'the session is ready for the next message');
  return errors[0];
}

export async function candidates(sb: SwitchboardApi, query: string, sessionId?: string): Promise<MentionCandidate[]> {
  return sb.backend.mentions.query(query, sessionId);
}

export function ref(c: MentionCandidate): MentionRef {
  return { kind: c.kind, uri: c.uri, label: c.label, ...(c.range ? { range: c.range } : {}) };
}

export function resourceOf(blocks: Block[]): NonNullable<Block['resource']> {
  const r = blocks.find((b) => b.type === 'resource')?.resource;
  assert.ok(r, `a resource block: ${JSON.stringify(blocks)}`);
  return r;
}
