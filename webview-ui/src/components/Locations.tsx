// The files a tool call or permission request names, each a link that opens the file (at its line).
import type { ToolLocation } from '../../../src/shared/transcript';
import { Icon } from './Icon';
import { basename } from './format';
import { useStore } from './storeHooks';

export function Locations({ locations }: { locations: ToolLocation[] }) {
  const store = useStore();
  if (!locations.length) return null;
  return (
    <ul class="locations" aria-label="Locations">
      {locations.map((l, i) => {
        const text = `${basename(l.path)}${l.line ? `:${l.line}` : ''}`;
        return (
          <li key={`${l.path}:${l.line ?? ''}:${i}`}>
            <button
              type="button"
              class="link-button"
              title={l.path + (l.line ? `:${l.line}` : '')}
              aria-label={`Open ${l.path}${l.line ? ` at line ${l.line}` : ''}`}
              onClick={() => store.post({ type: 'openLocation', path: l.path, ...(l.line ? { line: l.line } : {}) })}
            >
              <Icon name="go-to-file" />
              {text}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
