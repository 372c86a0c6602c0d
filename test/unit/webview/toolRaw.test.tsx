import './setupDom';
import * as assert from 'node:assert/strict';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { MAX_RAW_CHARS } from '../../../webview-ui/src/components/rawValue';
import { click, getByRole, mount, queryAllByRole, snapshot } from './helpers';

type ToolCallItem = Extract<TranscriptItem, { kind: 'tool_call' }>;

function call(over: Partial<ToolCallItem> & { title: string }): ToolCallItem {
  return { kind: 'tool_call', id: `t-${over.title}`, toolCallId: `tc-${over.title}`, toolKind: 'other', status: 'completed', content: [], locations: [], ...over };
}

/** How often `needle` occurs in the card's text. */
function occurrences(el: Element, needle: string): number {
  return (el.textContent ?? '').split(needle).length - 1;
}

function disclosure(card: HTMLElement, name: 'Input' | 'Output'): HTMLButtonElement | undefined {
  return queryAllByRole(card, 'button', name)[0] as HTMLButtonElement | undefined;
}

describe('webview: a tool call\'s raw input and output', () => {
  it('shows the raw output of a read tool behind a collapsed "Output" disclosure, text as it came', () => {
    const text = 'line one\n  line two\n';
    const h = mount(snapshot([call({ title: 'Read notes.txt', toolKind: 'read', rawInput: { path: '/ws/notes.txt' }, rawOutput: text })]));
    const card = getByRole(h.root, 'group', 'Read notes.txt');
    const output = disclosure(card, 'Output')!;
    assert.equal(output.getAttribute('aria-expanded'), 'false', 'collapsed by default');
    assert.equal(occurrences(card, 'line two'), 0);
    click(output);
    assert.equal(output.getAttribute('aria-expanded'), 'true');
    const shown = card.querySelector('pre.raw-text')!;
    assert.equal(shown.textContent, text, 'a string is shown as it came, not as JSON');
    assert.equal(shown.getAttribute('aria-label'), 'Raw output of Read notes.txt');
    // The input is there too, pretty-printed JSON, collapsed.
    const input = disclosure(card, 'Input')!;
    assert.equal(input.getAttribute('aria-expanded'), 'false');
    click(input);
    assert.equal(card.querySelector('pre.raw-json')!.textContent, JSON.stringify({ path: '/ws/notes.txt' }, null, 2));
    h.unmount();
  });

  it('shows an "other" tool\'s object output as pretty-printed JSON, and keeps it open across updates', () => {
    const item = call({ title: 'Fetch issue', rawOutput: { status: 200, body: { title: 'Bug' } } });
    const h = mount(snapshot([item]));
    const card = () => getByRole(h.root, 'group', 'Fetch issue');
    click(disclosure(card(), 'Output')!);
    assert.equal(card().querySelector('pre.raw-json')!.textContent, JSON.stringify({ status: 200, body: { title: 'Bug' } }, null, 2));
    h.sendOps('s1', [{ op: 'replace', index: 0, id: item.id, item: { ...item, rawOutput: { status: 200, body: { title: 'Bug 2' } } } }]);
    assert.match(card().querySelector('pre.raw-json')!.textContent!, /Bug 2/, 'still open, with the new output');
    h.unmount();
  });

  it('Cline\'s run_commands: the output only in rawOutput [{query, result, success}] is shown', () => {
    const h = mount(snapshot([
      call({
        title: 'run_commands', toolKind: 'execute', rawInput: { commands: ['echo shell-says-hi'] },
        rawOutput: [{ query: 'echo shell-says-hi', result: 'shell-says-hi\n', success: true }],
      }),
    ]));
    const card = getByRole(h.root, 'group', 'run_commands');
    click(disclosure(card, 'Output')!);
    const json = card.querySelector('pre.raw-json')!.textContent!;
    assert.deepEqual(JSON.parse(json), [{ query: 'echo shell-says-hi', result: 'shell-says-hi\n', success: true }]);
    h.unmount();
  });

  it('Kilo\'s shell output, sent as content and in rawOutput.output, is shown once', () => {
    const printed = 'total 8\n-rw-r--r-- 1 u u 12 hello.txt\n';
    const h = mount(snapshot([
      call({
        title: 'ls -l', toolKind: 'execute', rawInput: { command: 'ls -l', description: 'Lists files' },
        content: [{ type: 'content', content: { type: 'text', text: printed } }],
        rawOutput: { output: printed, metadata: { output: printed, exit: 0, description: 'Lists files' } },
        // What the reducer makes of an execute tool's rawOutput.output.
        output: { text: printed, truncated: false },
      }),
    ]));
    const card = getByRole(h.root, 'group', 'ls -l');
    assert.equal(occurrences(card, 'hello.txt'), 1, 'the shell output shows once, not also as a text block');
    assert.equal(card.querySelectorAll('.terminal-output').length, 1);
    click(disclosure(card, 'Output')!);
    assert.equal(occurrences(card, 'hello.txt'), 1, 'the raw output does not repeat it either');
    const raw = JSON.parse(card.querySelector('.tool-raw pre.raw-json')!.textContent!);
    assert.deepEqual(raw, { output: '(shown above)', metadata: { output: '(shown above)', exit: 0, description: 'Lists files' } }, 'what it adds is still there');
    // The command is shown as the card's command line; the input disclosure keeps only the rest.
    click(disclosure(card, 'Input')!);
    const input = card.querySelectorAll('.tool-raw pre.raw-json')[0].textContent!;
    assert.deepEqual(JSON.parse(input), { command: '(shown above)', description: 'Lists files' });
    h.unmount();
  });

  it('has no disclosure when everything in it is shown already (or it is empty)', () => {
    const h = mount(snapshot([
      call({
        title: 'echo hi', toolKind: 'execute', rawInput: { command: 'echo hi' },
        content: [{ type: 'content', content: { type: 'text', text: 'hi\n' } }], rawOutput: { output: '\u001b[1mhi\u001b[0m\r\n' },
      }),
      call({ title: 'Think', toolKind: 'think', rawInput: {}, rawOutput: { metadata: {}, notes: [] } }),
    ]));
    const echo = getByRole(h.root, 'group', 'echo hi');
    assert.equal(disclosure(echo, 'Input'), undefined);
    assert.equal(disclosure(echo, 'Output'), undefined, 'the same text with ANSI colours and CRLF is the same output');
    assert.equal(occurrences(echo, 'hi\n'), 1);
    const think = getByRole(h.root, 'group', 'Think');
    assert.equal(disclosure(think, 'Input'), undefined);
    assert.equal(disclosure(think, 'Output'), undefined);
    h.unmount();
  });

  it('does not repeat a client terminal\'s output, or the tail of a shell output that was cut', () => {
    const tail = 'last line of a long build\n';
    const snap = snapshot([
      call({ title: 'npm test', toolKind: 'execute', content: [{ type: 'terminal', terminalId: 'term1' }], rawOutput: { stdout: 'all 3 passed\n', exitCode: 0 } }),
      call({ title: 'make', toolKind: 'execute', rawOutput: { output: `${'x'.repeat(500)}\n${tail}` }, output: { text: tail, truncated: true } }),
    ]);
    snap.terminals = [{ terminalId: 'term1', output: 'all 3 passed\n' }];
    const h = mount(snap);
    const npm = getByRole(h.root, 'group', 'npm test');
    click(disclosure(npm, 'Output')!);
    assert.deepEqual(JSON.parse(npm.querySelector('.tool-raw pre')!.textContent!), { stdout: '(shown above)', exitCode: 0 });
    const make = getByRole(h.root, 'group', 'make');
    assert.equal(disclosure(make, 'Output'), undefined);
    h.unmount();
  });

  it('bounds a huge output and says how much was left out', () => {
    const huge = 'y'.repeat(MAX_RAW_CHARS * 3);
    const h = mount(snapshot([call({ title: 'Dump', rawOutput: huge })]));
    const card = getByRole(h.root, 'group', 'Dump');
    click(disclosure(card, 'Output')!);
    assert.equal(card.querySelector('pre.raw-text')!.textContent!.length, MAX_RAW_CHARS);
    assert.equal(card.querySelector('.raw-cut')!.textContent, 'Showing the first 20,000 of 60,000 characters (40,000 left out).');
    h.unmount();
  });

  it('survives raw values of every shape', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 2000; i++) deep = [deep];
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i % 2 ? 'same' : null]));
    const odd: unknown[] = [0, false, null, '', '   ', ['\u0000\u001b[31m'], JSON.parse('{"": {"__proto__": 1}}'), deep, wide];
    const h = mount(snapshot(odd.map((v, i) => call({ title: `Odd ${i}`, rawInput: v, rawOutput: v, content: [{ type: 'content', content: { type: 'text', text: 'same' } }] }))));
    for (let i = 0; i < odd.length; i++) {
      const card = getByRole(h.root, 'group', `Odd ${i}`);
      for (const b of queryAllByRole(card, 'button').filter((x) => ['Input', 'Output'].includes(x.textContent!.trim()))) click(b);
    }
    // Nothing to show for empty values; the number 0 and false are values.
    assert.equal(disclosure(getByRole(h.root, 'group', 'Odd 0'), 'Output')!.getAttribute('aria-expanded'), 'true');
    assert.equal(disclosure(getByRole(h.root, 'group', 'Odd 2'), 'Output'), undefined);
    assert.equal(disclosure(getByRole(h.root, 'group', 'Odd 4'), 'Output'), undefined);
    assert.ok(getByRole(h.root, 'group', 'Odd 8').querySelector('.raw-cut'), 'a wide object is cut too');
    h.unmount();
  });
});
