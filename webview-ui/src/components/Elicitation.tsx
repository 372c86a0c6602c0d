import { useState } from 'preact/hooks';
import type { ElicitationProperty, ElicitationValue, PendingElicitation } from '../../../src/shared/chatState';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

function initialValue(p: ElicitationProperty): ElicitationValue | undefined {
  if (p.default !== undefined) return p.default;
  if (p.type === 'boolean') return false;
  if (p.type === 'array') return [];
  return undefined;
}

function choices(p: ElicitationProperty): { value: string; label: string }[] | undefined {
  if (p.type === 'string') {
    if (p.oneOf) return p.oneOf.map((o) => ({ value: o.const, label: o.title ?? o.const }));
    if (p.enum) return p.enum.map((v, i) => ({ value: v, label: p.enumNames?.[i] ?? v }));
  }
  if (p.type === 'array') {
    const it = p.items;
    if (it.anyOf) return it.anyOf.map((o) => ({ value: o.const, label: o.title ?? o.const }));
    if (it.enum) return it.enum.map((v, i) => ({ value: v, label: it.enumNames?.[i] ?? v }));
  }
  return undefined;
}

export function ElicitationCard({ request, sessionId }: { request: PendingElicitation; sessionId: string }) {
  const store = useStore();
  const props = request.mode === 'form' ? Object.entries(request.schema.properties ?? {}) : [];
  const required = new Set(request.mode === 'form' ? (request.schema.required ?? []) : []);
  const [values, setValues] = useState<Record<string, ElicitationValue | undefined>>(() =>
    Object.fromEntries(props.map(([k, p]) => [k, initialValue(p)])),
  );
  const [error, setError] = useState<string | undefined>();
  const set = (k: string, v: ElicitationValue | undefined) => setValues((prev) => ({ ...prev, [k]: v }));
  const answer = (action: 'accept' | 'decline' | 'cancel') => {
    if (action === 'accept' && request.mode === 'form') {
      const content: Record<string, ElicitationValue> = {};
      for (const [k, p] of props) {
        const v = values[k];
        if (v === undefined || v === '') {
          if (required.has(k)) {
            setError(`${p.title ?? k} is required.`);
            return;
          }
          continue;
        }
        content[k] = v;
      }
      store.post({ type: 'elicitationAnswer', sessionId, requestId: request.requestId, answer: { action, content } });
      return;
    }
    store.post({ type: 'elicitationAnswer', sessionId, requestId: request.requestId, answer: action === 'accept' ? { action } : { action } });
  };
  const idBase = `el-${request.requestId}`;
  return (
    <form
      class="elicitation-card"
      aria-labelledby={`${idBase}-msg`}
      onSubmit={(e) => {
        e.preventDefault();
        answer('accept');
      }}
    >
      <div class="item-header">
        <Icon name="question" />
        <span id={`${idBase}-msg`}>{request.message}</span>
      </div>
      {request.mode === 'url' && (
        <div class="elicitation-url">
          <code>{request.url}</code>
          <button type="button" class="secondary-button" onClick={() => store.post({ type: 'openLink', href: request.url })}>
            Open link
          </button>
        </div>
      )}
      {props.map(([k, p]) => {
        const id = `${idBase}-${k}`;
        const label = `${p.title ?? k}${required.has(k) ? ' (required)' : ''}`;
        const c = choices(p);
        const v = values[k];
        let field;
        if (p.type === 'boolean') {
          return (
            <div class="field checkbox" key={k}>
              <input id={id} type="checkbox" checked={v === true} onChange={(e) => set(k, (e.currentTarget as HTMLInputElement).checked)} />
              <label for={id}>{label}</label>
              {p.description && <div class="field-description">{p.description}</div>}
            </div>
          );
        } else if (p.type === 'array' && c) {
          const sel = Array.isArray(v) ? v : [];
          return (
            <fieldset class="field" key={k}>
              <legend>{label}</legend>
              {c.map((o) => (
                <label key={o.value} class="checkbox">
                  <input
                    type="checkbox"
                    checked={sel.includes(o.value)}
                    onChange={(e) =>
                      set(k, (e.currentTarget as HTMLInputElement).checked ? [...sel, o.value] : sel.filter((x) => x !== o.value))
                    }
                  />
                  {o.label}
                </label>
              ))}
            </fieldset>
          );
        } else if (c) {
          field = (
            <select id={id} value={typeof v === 'string' ? v : ''} onChange={(e) => set(k, (e.currentTarget as HTMLSelectElement).value || undefined)}>
              <option value="">—</option>
              {c.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          );
        } else if (p.type === 'number' || p.type === 'integer') {
          field = (
            <input
              id={id}
              type="number"
              step={p.type === 'integer' ? 1 : 'any'}
              min={p.minimum}
              max={p.maximum}
              value={typeof v === 'number' ? String(v) : ''}
              onInput={(e) => {
                const raw = (e.currentTarget as HTMLInputElement).value;
                set(k, raw === '' ? undefined : p.type === 'integer' ? parseInt(raw, 10) : Number(raw));
              }}
            />
          );
        } else {
          const sp = p.type === 'string' ? p : undefined;
          field = (
            <input
              id={id}
              type={(sp?.format === 'email' ? 'email' : sp?.format === 'uri' ? 'url' : 'text') as 'text'}
              minLength={sp?.minLength}
              maxLength={sp?.maxLength}
              value={typeof v === 'string' ? v : ''}
              onInput={(e) => set(k, (e.currentTarget as HTMLInputElement).value)}
            />
          );
        }
        return (
          <div class="field" key={k}>
            <label for={id}>{label}</label>
            {field}
            {p.description && <div class="field-description">{p.description}</div>}
          </div>
        );
      })}
      {error && (
        <div class="error-text" role="alert">
          {error}
        </div>
      )}
      <div class="elicitation-actions">
        <button type="submit" class="primary-button">
          Accept
        </button>
        <button type="button" class="secondary-button" onClick={() => answer('decline')}>
          Decline
        </button>
        <button type="button" class="secondary-button" onClick={() => answer('cancel')}>
          Cancel
        </button>
      </div>
    </form>
  );
}
