import { Collapsible } from './Collapsible';
import { rawText } from './rawValue';

/**
 * A tool call's raw input or output behind a disclosure named `label` ("Input", "Output"), collapsed
 * until asked for: a string as it came, anything else as pretty-printed JSON, cut at a bound with a
 * note of what was left out. The text is made only when the disclosure opens.
 */
export function RawDisclosure({ id, label, title, value }: { id: string; label: string; title: string; value: unknown }) {
  return (
    <Collapsible id={id} label={label} className="tool-raw">
      {() => {
        const raw = rawText(value);
        return (
          <>
            <pre class={raw.json ? 'raw-json' : 'raw-text'} tabIndex={0} aria-label={`Raw ${label.toLowerCase()} of ${title}`}>
              {raw.text}
            </pre>
            {raw.cut > 0 && (
              <div class="raw-cut muted">
                Showing the first {raw.text.length.toLocaleString('en-US')} of {raw.total.toLocaleString('en-US')} characters ({raw.cut.toLocaleString('en-US')} left out).
              </div>
            )}
          </>
        );
      }}
    </Collapsible>
  );
}
