// Markdown shapes the chat bench streams (bench/lib/transcript-agent.mjs sends them; the bench counts them).

/** One fenced code block of n lines, a line per chunk (streaming a big file into the chat). */
export function codeChunks(n) {
  const chunks = ['Here is the file:\n\n```ts\n'];
  for (let i = 0; i < n; i++) chunks.push(`const value${i} = compute(${i}, "<b>${i}</b>"); // line ${i}\n`);
  chunks.push('```\n\nEnd of code.');
  return chunks;
}

/** n sections of mixed Markdown (heading, paragraph with marks and a link, list; a fence every 10th), 16 characters a chunk. */
export function blockChunks(n) {
  let all = '';
  for (let i = 0; i < n; i++) {
    all += `## Section ${i}\n\nText of **section ${i}** with \`code\` and a [link](https://example.com/${i}).\n\n- point a of ${i}\n- point b\n\n`;
    if (i % 10 === 0) all += '```js\nconsole.log(' + i + ');\n```\n\n';
  }
  all += 'End of blocks.';
  const chunks = [];
  for (let i = 0; i < all.length; i += 16) chunks.push(all.slice(i, i + 16));
  return chunks;
}
