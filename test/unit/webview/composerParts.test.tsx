// The composer's pure parts: what the caret completes, what a completion puts in the draft, what a drop of
// URIs becomes, when there is anything to send.
import * as assert from 'node:assert/strict';
import { droppedMentions } from '../../../webview-ui/src/components/composerDrop';
import { canSend } from '../../../webview-ui/src/components/composerSend';
import { findTrigger } from '../../../webview-ui/src/components/composerTrigger';
import { withSuggestion } from '../../../webview-ui/src/components/useSuggestions';

const empty = { text: '', mentions: [], images: [] };

describe('webview: the composer parts', () => {
  it('completes `/` only at the start and `@` only after whitespace', () => {
    assert.deepEqual(findTrigger('/rev', 4), { kind: 'command', start: 0, query: 'rev' });
    assert.equal(findTrigger('x /rev', 6), undefined);
    assert.deepEqual(findTrigger('look at @src/a', 14), { kind: 'mention', start: 8, query: 'src/a' });
    assert.equal(findTrigger('mail me@home', 12), undefined);
    assert.equal(findTrigger('@a b', 4), undefined);
    assert.deepEqual(findTrigger('@', 1), { kind: 'mention', start: 0, query: '' });
    assert.equal(findTrigger('', 0), undefined);
  });

  it('a completion replaces what was typed, adds the chip once, and puts the caret after it', () => {
    const candidate = { kind: 'file' as const, uri: 'file:///w/a.ts', label: 'a.ts' };
    const draft = { ...empty, text: 'see @a. and more' };
    const trigger = findTrigger(draft.text, 6)!;
    const once = withSuggestion(draft, trigger, 6, { kind: 'mention', candidate });
    assert.equal(once.draft.text, 'see @a.ts . and more');
    assert.equal(once.caret, 'see @a.ts '.length);
    assert.equal(once.draft.mentions.length, 1);
    const twice = withSuggestion({ ...once.draft, text: '@a' }, findTrigger('@a', 2)!, 2, { kind: 'mention', candidate });
    assert.equal(twice.draft.mentions.length, 1);
    const command = withSuggestion({ ...empty, text: '/re' }, findTrigger('/re', 3)!, 3, { kind: 'command', command: { name: 'review', description: 'Review' } });
    assert.equal(command.draft.text, '/review ');
  });

  it("a drop's URI list becomes file chips; comments, blank lines and junk escapes do not break it", () => {
    assert.deepEqual(droppedMentions('# comment\r\nfile:///w/a%20b.ts\r\n\r\nfile:///w/dir/'), [
      { kind: 'file', uri: 'file:///w/a%20b.ts', label: 'a b.ts' },
      { kind: 'file', uri: 'file:///w/dir/', label: 'file:///w/dir/' },
    ]);
    assert.deepEqual(droppedMentions(''), []);
    assert.deepEqual(droppedMentions('file:///w/100%.txt'), [{ kind: 'file', uri: 'file:///w/100%.txt', label: '100%.txt' }]);
  });

  it('sends only a draft with text, an image or a chip', () => {
    assert.equal(canSend(empty), false);
    assert.equal(canSend({ ...empty, text: '  \n' }), false);
    assert.equal(canSend({ ...empty, text: 'hi' }), true);
    assert.equal(canSend({ ...empty, mentions: [{ kind: 'file', uri: 'file:///a', label: 'a' }] }), true);
  });
});
