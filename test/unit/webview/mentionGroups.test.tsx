// The `@` picker's groups in the composer: candidates under their group's heading, the group with the best
// match first, a few per group so many files never hide Problems, Changes, Terminal or Sessions; the arrow
// keys skip the headings and a picked context mention is sent as its kind.
import './setupDom';
import * as assert from 'assert';
import type { MentionCandidate } from '../../../src/shared/chatState';
import { groupMentions } from '../../../webview-ui/src/mentionGroups';
import { getByRole, keydown, mount, queryAllByRole, snapshot, typeInto } from './helpers';

const files = Array.from({ length: 40 }, (_, i): MentionCandidate => ({ kind: 'file', uri: `file:///ws/p${i}.ts`, label: `p${i}.ts`, detail: `src/p${i}.ts` }));
const context: MentionCandidate[] = [
  { kind: 'problems', uri: 'file:///ws/app.ts', label: 'problems:app.ts', detail: '2 in the active file' },
  { kind: 'changes', uri: 'file:///ws', label: 'changes:ws', detail: 'All 3 changed files' },
  { kind: 'terminal', uri: 'switchboard-terminal:1', label: 'terminal:bash', detail: 'Last command: npm test' },
  { kind: 'session', uri: 'switchboard-session:s0', label: 'session:Earlier work', detail: 'Fake · 2026-11-27 10:00' },
];

describe('webview: @ picker groups', () => {
  it('keeps a few of each group, groups in the order of their best candidate', () => {
    const out = groupMentions([...files.slice(0, 3), context[1], ...files.slice(3), context[0]], 2, 30);
    assert.deepEqual(out.map((c) => c.label), ['p0.ts', 'p1.ts', 'changes:ws', 'problems:app.ts']);
    assert.equal(groupMentions([...files, ...context], 8, 10).length, 10, 'at most the limit in all');
  });

  it('shows each group under its heading and sends the picked Problems mention as kind "problems"', () => {
    const h = mount(snapshot([]));
    const box = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    typeInto(box, 'fix @');
    const q = h.last('mentionQuery')!;
    h.send({ type: 'mentionResults', requestId: q.requestId, candidates: [...files, ...context] });
    const list = getByRole(h.root, 'listbox', 'Mentions');
    const headings = Array.from(list.querySelectorAll('li.sugg-group')).map((l) => l.textContent);
    assert.deepEqual(headings, ['Files', 'Problems', 'Changes', 'Terminal', 'Sessions']);
    const options = queryAllByRole(list, 'option');
    assert.equal(options.length, 8 + 4, 'eight files, then every context group');
    assert.ok(!headings.some((t) => options.some((o) => o.textContent === t)), 'headings are not options');
    for (let i = 0; i < 8; i++) keydown(box, 'ArrowDown');
    assert.match(getByRole(h.root, 'listbox', 'Mentions').querySelector('[aria-selected="true"]')!.textContent!, /problems:app\.ts/);
    keydown(box, 'Enter');
    const box2 = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    assert.equal(box2.value, 'fix @problems:app.ts ');
    keydown(box2, 'Enter');
    assert.deepEqual(h.last('prompt')?.prompt.mentions, [{ kind: 'problems', uri: 'file:///ws/app.ts', label: 'problems:app.ts' }]);
    h.unmount();
  });
});
