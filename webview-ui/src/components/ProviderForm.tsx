// The form that sets one model provider: API type, base URL and headers (a stored header value is kept when
// left empty).
import { useState } from 'preact/hooks';
import type { ProviderAction, ProviderView } from '../../../src/shared/chatState';
import { Icon } from './Icon';

/** Sends a provider action to the host. */
export type Post = (action: ProviderAction) => void;

interface HeaderRow {
  name: string;
  value: string;
  /** A value is stored for this name: left empty, it is kept. */
  stored: boolean;
}

export function ProviderForm({ provider: p, busy, post, close }: { provider: ProviderView; busy: boolean; post: Post; close: () => void }) {
  const saved = p.saved && !('disabled' in p.saved) ? p.saved : undefined;
  const [apiType, setApiType] = useState(saved?.apiType ?? p.current?.apiType ?? p.supported[0] ?? '');
  const [baseUrl, setBaseUrl] = useState(saved?.baseUrl ?? p.current?.baseUrl ?? '');
  const [headers, setHeaders] = useState<HeaderRow[]>(saved?.headerNames.map((name) => ({ name, value: '', stored: true })) ?? []);
  const types = p.supported.includes(apiType) || !apiType ? p.supported : [apiType, ...p.supported];
  const edit = (i: number, change: Partial<HeaderRow>) => setHeaders(headers.map((h, j) => (j === i ? { ...h, ...change } : h)));
  const submit = (e: Event) => {
    e.preventDefault();
    post({
      kind: 'set',
      providerId: p.providerId,
      apiType,
      baseUrl,
      headers: headers.map((h) => (h.stored && h.value === '' ? { name: h.name } : { name: h.name, value: h.value })),
    });
  };
  return (
    <form class="provider-form" aria-label={`Set provider ${p.providerId}`} onSubmit={submit}>
      <label>
        API type{' '}
        {types.length > 0 ? (
          <select value={apiType} onChange={(e) => setApiType((e.currentTarget as HTMLSelectElement).value)}>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        ) : (
          <input type="text" value={apiType} onInput={(e) => setApiType((e.currentTarget as HTMLInputElement).value)} />
        )}
      </label>
      <label>
        Base URL{' '}
        <input type="text" inputMode="url" placeholder="https://…" value={baseUrl} onInput={(e) => setBaseUrl((e.currentTarget as HTMLInputElement).value)} />
      </label>
      {headers.map((h, i) => (
        <div class="provider-header" key={i}>
          <input type="text" aria-label={`Header ${i + 1} name`} placeholder="Header name" value={h.name} onInput={(e) => edit(i, { name: (e.currentTarget as HTMLInputElement).value, stored: false })} />
          <input
            type="password"
            aria-label={`Header ${i + 1} value`}
            placeholder={h.stored ? 'stored: leave empty to keep' : 'value'}
            value={h.value}
            onInput={(e) => edit(i, { value: (e.currentTarget as HTMLInputElement).value })}
          />
          <button type="button" class="icon-button" aria-label={`Remove header ${i + 1}`} onClick={() => setHeaders(headers.filter((_, j) => j !== i))}>
            <Icon name="close" />
          </button>
        </div>
      ))}
      <div class="banner-actions">
        <button type="button" class="secondary-button" onClick={() => setHeaders([...headers, { name: '', value: '', stored: false }])}>
          Add header
        </button>
        <button type="submit" class="primary-button" disabled={busy}>
          Apply
        </button>
        <button type="button" class="secondary-button" onClick={close}>
          Close
        </button>
      </div>
    </form>
  );
}
