// A long or streaming code block drawn as plain-text pieces of whole lines, with the same toolbar as the
// code blocks markdown-it renders.
import { CODE_ACTIONS } from '../markdownRender';
import { memo } from './memo';

/**
 * One piece of a long code block, a block of whole lines of its own: appending a piece neither rebuilds
 * nor re-lays out the others, and pieces out of view are not laid out at all (content-visibility; the
 * size they take meanwhile is their line count until they were shown once).
 */
const CodePiece = memo(function CodePiece({ text }: { text: string }) {
  return (
    <span class="code-piece" style={{ containIntrinsicSize: `auto ${lineCount(text)}lh` }}>
      {text}
    </span>
  );
});

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A long (or still streaming) code block as plain text pieces; same markup and buttons as markdown-it's. */
export const CodeBlockView = memo(function CodeBlockView({ lang, pieces }: { lang: string; pieces: readonly string[] }) {
  return (
    <div class="md-block">
      <div class="code-block" data-lang={lang}>
        <div class="code-toolbar">
          <span class="code-lang">{lang}</span>
          {CODE_ACTIONS.map((a) => (
            <button key={a.action} type="button" class={`icon-button codicon codicon-${a.icon}`} data-code-action={a.action} aria-label={a.label} title={a.title} />
          ))}
        </div>
        <pre>
          <code class={lang ? `hljs language-${lang}` : 'hljs'}>
            {pieces.map((p, i) => (
              <CodePiece key={i} text={p} />
            ))}
          </code>
        </pre>
      </div>
    </div>
  );
});
