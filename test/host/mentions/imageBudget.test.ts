// Images count toward the prompt budget (switchboard.maxPromptBytes) through the real backend: an image over
// it is refused in the chat, named, with nothing sent; within it, the image goes; an image the agent does
// not take (no image capability) is left out and so does not count.
import * as assert from 'assert';
import type { ImageAttachment } from '../../../src/shared/chatState';
import { setSettings } from '../index';
import { promptsIn, sendRefused, withRecordingAgents } from './helpers';

describe('@ mentions: images and the budget', function () {
  this.timeout(120_000);
  const { context, record, agents } = withRecordingAgents('ImageBudget');
  /** 6,000 bytes of base64, as the composer holds a pasted image. */
  const image: ImageAttachment = { id: 'img-1', mimeType: 'image/png', name: 'screenshot.png', data: 'A'.repeat(6000) };

  it('an image over the budget is refused, named, nothing sent; under a larger budget it goes', async () => {
    const session = await context.sb.backend.lifecycle.open(agents.embedder);
    const restore = await setSettings({ 'switchboard.maxPromptBytes': 4096 });
    try {
      const error = await sendRefused(context.sb, record.embedder, session, [], /comes to 6 KB, over the 4 KB one message may carry\. Largest: the image screenshot\.png \(6 KB\)/, [image]);
      assert.match(error.detail ?? '', /remove an image or a mention/);
    } finally {
      await restore();
    }
    await context.sb.backend.sessions.require(session).prompt({ text: 'what is wrong here?', mentions: [], images: [image] });
    const sent = promptsIn(record.embedder).at(-1) ?? [];
    assert.ok(sent.some((b) => b.type === 'image'), `the image went within the default budget: ${JSON.stringify(sent.map((b) => b.type))}`);
  });

  it('an image the agent does not take is left out and does not count', async () => {
    const session = await context.sb.backend.lifecycle.open(agents.linker);
    const restore = await setSettings({ 'switchboard.maxPromptBytes': 4096 });
    try {
      const before = promptsIn(record.linker).length;
      await context.sb.backend.sessions.require(session).prompt({ text: 'look', mentions: [], images: [image] });
      const prompts = promptsIn(record.linker);
      assert.strictEqual(prompts.length, before + 1, 'the message was sent');
      assert.deepStrictEqual(prompts.at(-1)?.map((b) => b.type), ['text'], 'without the image');
    } finally {
      await restore();
    }
  });
});
