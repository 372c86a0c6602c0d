import { useEffect, useRef, useState } from 'preact/hooks';
import type { ImageAttachment, MentionCandidate, MentionRef } from '../../../src/shared/chatState';
import type { AvailableCommand } from '../../../src/shared/transcript';
import { labelThenDetail, rankByFuzzy } from '../../../src/shared/fuzzy';
import { NO_SESSION, type Draft, type SessionState } from '../store';
import { groupMentions } from '../mentionGroups';
import { Icon, useStore } from './common';
import { ComposerNotice, MentionChip } from './MentionChip';
import { MentionOption } from './MentionOption';
import { SteerButton, steeringNow, workingPlaceholder } from './Steer';

type Suggestion =
  | { kind: 'command'; command: AvailableCommand }
  | { kind: 'mention'; candidate: MentionCandidate };

interface Trigger {
  kind: 'command' | 'mention';
  /** Start offset of the trigger character. */
  start: number;
  query: string;
}

/** What the caret is completing: `/cmd` at the start, or `@query` after whitespace. */
export function findTrigger(text: string, caret: number): Trigger | undefined {
  const before = text.slice(0, caret);
  const cmd = /^\/(\S*)$/.exec(before);
  if (cmd) return { kind: 'command', start: 0, query: cmd[1] };
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (m) return { kind: 'mention', start: before.length - m[2].length - 1, query: m[2] };
  return undefined;
}

/** The most suggestions the completion list shows. */
const SUGGESTION_LIMIT = 30;

/** The most candidates of one `@` group the list shows. */
const PER_GROUP = 8;

let mentionRequestSeq = 0;

function readImage(file: File): Promise<ImageAttachment> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onerror = () => reject(r.error);
    r.onload = () => {
      const url = String(r.result);
      const comma = url.indexOf(',');
      resolve({ id: `img${Date.now()}${Math.random().toString(36).slice(2, 6)}`, mimeType: file.type, data: url.slice(comma + 1), name: file.name });
    };
    r.readAsDataURL(file);
  });
}

export function Composer({ session }: { session: SessionState | undefined }) {
  const store = useStore();
  const key = session?.view.sessionId ?? NO_SESSION;
  const [draft, setDraftState] = useState<Draft>(() => store.ui.draft(key));
  const [draftKey, setDraftKey] = useState(key);
  const [trigger, setTrigger] = useState<Trigger | undefined>();
  const [active, setActive] = useState(0);
  const [mentionResults, setMentionResults] = useState<MentionCandidate[]>([]);
  const lastMentionRequest = useRef(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const recallIndex = useRef<number | undefined>(undefined);
  const [notice, setNoticeState] = useState<string | undefined>(() => store.composerNotice);
  const setNotice = (n: string | undefined) => {
    setNoticeState(n);
    store.composerNotice = n;
  };

  // Switching tabs swaps the draft.
  if (draftKey !== key) {
    setDraftKey(key);
    setDraftState(store.ui.draft(key));
    setTrigger(undefined);
  }

  const setDraft = (d: Draft) => {
    setDraftState(d);
    store.ui.setDraft(key, d);
  };

  useEffect(
    () =>
      store.onMentionResults((requestId, candidates) => {
        if (requestId === lastMentionRequest.current) setMentionResults(candidates);
      }),
    [store],
  );

  useEffect(() => {
    // Chips the store took between this composer's render and now (a webview that just loaded gets them
    // right after its init) would otherwise wait for the next request.
    const stored = store.ui.draft(key);
    if (stored.mentions.length !== draft.mentions.length || stored.text !== draft.text) setDraftState(stored);
    setNoticeState(store.composerNotice);
    return store.onComposerRequest(() => {
      setDraftState(store.ui.draft(key));
      setNotice(store.composerNotice);
      textarea.current?.focus();
    });
  }, [store, key]);

  const caps = session?.view.capabilities;
  const commands = session?.transcript.commands ?? [];
  const busy = session !== undefined && session.view.turn !== 'idle';
  const steering = steeringNow(session);

  const suggestions: Suggestion[] = !trigger
    ? []
    : trigger.kind === 'command'
      ? rankByFuzzy(trigger.query, commands, (c) => [c.name, c.description], { limit: SUGGESTION_LIMIT }).map((command) => ({ kind: 'command' as const, command }))
      : // The host may still be answering an older query: rank its candidates for this one.
        groupMentions(rankByFuzzy(trigger.query, mentionResults, labelThenDetail), PER_GROUP, SUGGESTION_LIMIT).map((candidate) => ({ kind: 'mention' as const, candidate }));
  const open = suggestions.length > 0;
  const activeIndex = Math.min(active, Math.max(0, suggestions.length - 1));

  const updateTrigger = (text: string, caret: number) => {
    const t = findTrigger(text, caret);
    if (t?.kind === 'mention' && (t.query !== trigger?.query || trigger?.kind !== 'mention')) {
      const requestId = ++mentionRequestSeq;
      lastMentionRequest.current = requestId;
      store.post({ type: 'mentionQuery', requestId, query: t.query, ...(session ? { sessionId: session.view.sessionId } : {}) });
    }
    if (t?.kind !== trigger?.kind || t?.query !== trigger?.query) setActive(0);
    setTrigger(t);
  };

  const accept = (s: Suggestion) => {
    if (!trigger) return;
    const el = textarea.current;
    const caret = el?.selectionStart ?? draft.text.length;
    let insert: string;
    let mentions = draft.mentions;
    if (s.kind === 'command') insert = `/${s.command.name} `;
    else {
      insert = `@${s.candidate.label} `;
      const ref: MentionRef = { kind: s.candidate.kind, uri: s.candidate.uri, label: s.candidate.label, ...(s.candidate.range ? { range: s.candidate.range } : {}) };
      if (!mentions.some((m) => m.uri === ref.uri && m.range?.startLine === ref.range?.startLine)) mentions = [...mentions, ref];
    }
    const text = draft.text.slice(0, trigger.start) + insert + draft.text.slice(caret);
    setDraft({ ...draft, text, mentions });
    setTrigger(undefined);
    const pos = trigger.start + insert.length;
    requestAnimationFrameSafe(() => {
      el?.focus();
      el?.setSelectionRange(pos, pos);
    });
  };

  /** `steer`: into the running turn (the host sends it like a prompt when no turn runs any more). */
  const send = (steer = false) => {
    const text = draft.text;
    if (!text.trim() && !draft.images.length && !draft.mentions.length) return;
    // Only mentions still referenced in the text (or with no text at all) go out.
    const mentions = draft.mentions.filter((m) => m.attached || text.includes(`@${m.label}`) || !text.trim());
    // While a session the user asked for is starting, the message waits for it instead of going to the tab shown.
    const starting = store.startingSession;
    const target = starting ? undefined : session;
    const agentId = starting ? starting.agentId : store.selectedAgentId();
    const prompt = { text, mentions, images: draft.images };
    if (steer && target) store.post({ type: 'steer', sessionId: target.view.sessionId, prompt });
    else
      store.post({
        type: 'prompt',
        ...(target ? { sessionId: target.view.sessionId } : {}),
        ...(!target && agentId ? { agentId } : {}),
        ...(starting ? { newSessionRequestId: starting.requestId } : {}),
        prompt,
      });
    store.ui.rememberSent(text);
    recallIndex.current = undefined;
    setDraft({ text: '', mentions: [], images: [] });
    setTrigger(undefined);
    setNotice(undefined);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const n = suggestions.length;
        setActive((activeIndex + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        e.preventDefault();
        accept(suggestions[activeIndex]);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setTrigger(undefined);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send(steering === 'steer');
      return;
    }
    if (e.key === 'ArrowUp' && !e.shiftKey) {
      const el = e.currentTarget as HTMLTextAreaElement;
      const sent = store.ui.sent;
      const recalling = recallIndex.current !== undefined;
      if (sent.length && (draft.text === '' || (recalling && el.selectionStart === 0))) {
        e.preventDefault();
        const i = recalling ? Math.max(0, recallIndex.current! - 1) : sent.length - 1;
        recallIndex.current = i;
        setDraft({ ...draft, text: sent[i] });
      }
      return;
    }
    if (e.key === 'Escape' && busy && session) {
      // Escape in the composer stops the turn (like Copilot Chat), only while busy.
      e.preventDefault();
      store.post({ type: 'cancel', sessionId: session.view.sessionId });
    }
  };

  const addImages = async (files: File[]) => {
    const images = files.filter((f) => /^image\/(png|jpe?g|gif|webp)$/i.test(f.type));
    if (!images.length) return false;
    if (!caps?.image) {
      store.showToast('This agent does not accept images.');
      store.changed();
      return true;
    }
    const read = await Promise.all(images.map(readImage));
    const d = store.ui.draft(key);
    setDraft({ ...d, text: textarea.current?.value ?? d.text, images: [...d.images, ...read] });
    return true;
  };

  const onPaste = (e: ClipboardEvent) => {
    const files = Array.from(e.clipboardData?.files ?? []);
    if (files.some((f) => f.type.startsWith('image/'))) {
      e.preventDefault();
      void addImages(files);
    }
  };

  const onDrop = (e: DragEvent) => {
    const dt = e.dataTransfer;
    if (!dt) return;
    e.preventDefault();
    const files = Array.from(dt.files ?? []);
    if (files.length) {
      void addImages(files);
      return;
    }
    const uris = (dt.getData('text/uri-list') || '').split(/\r?\n/).filter((u) => u && !u.startsWith('#'));
    if (uris.length) {
      const mentions = uris.map((uri): MentionRef => {
        const label = decodeURIComponent(uri.split('/').pop() || uri);
        return { kind: 'file', uri, label };
      });
      const text = draft.text + (draft.text && !draft.text.endsWith(' ') ? ' ' : '') + mentions.map((m) => `@${m.label}`).join(' ') + ' ';
      setDraft({ ...draft, text, mentions: [...draft.mentions, ...mentions] });
    }
  };

  const listId = 'composer-suggestions';
  const selectedCommand = (() => {
    const m = /^\/(\S+)\s*$/.exec(draft.text);
    return m ? commands.find((c) => c.name === m[1]) : undefined;
  })();

  return (
    <div class="composer" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      {notice && <ComposerNotice text={notice} onDismiss={() => setNotice(undefined)} />}
      {(draft.mentions.length > 0 || draft.images.length > 0) && (
        <ul class="attachments" aria-label="Attachments">
          {draft.mentions.map((m, i) => (
            <MentionChip key={`m${i}`} mention={m} onRemove={() => setDraft({ ...draft, mentions: draft.mentions.filter((_, j) => j !== i) })} />
          ))}
          {draft.images.map((img) => (
            <li key={img.id} class="chip">
              <img class="chip-thumb" alt="" src={`data:${img.mimeType};base64,${img.data}`} />
              <span>{img.name || 'Image'}</span>
              <button
                type="button"
                class="icon-button"
                aria-label={`Remove image ${img.name || ''}`.trim()}
                onClick={() => setDraft({ ...draft, images: draft.images.filter((x) => x.id !== img.id) })}
              >
                <Icon name="close" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <ul class="suggestions" id={listId} role="listbox" aria-label={trigger?.kind === 'command' ? 'Commands' : 'Mentions'}>
          {suggestions.map((s, i) => {
            if (s.kind === 'mention') {
              const previous = suggestions[i - 1];
              return (
                <MentionOption
                  key={`${s.candidate.kind}:${s.candidate.uri}:${s.candidate.range?.startLine ?? ''}`}
                  candidate={s.candidate}
                  previous={previous?.kind === 'mention' ? previous.candidate : undefined}
                  index={i}
                  active={i === activeIndex}
                  onAccept={() => accept(s)}
                />
              );
            }
            return (
              <li
                key={s.command.name}
                id={`sugg-${i}`}
                role="option"
                aria-selected={i === activeIndex}
                class={i === activeIndex ? 'active' : ''}
                onMouseDown={(e) => {
                  e.preventDefault();
                  accept(s);
                }}
              >
                <span class="sugg-label">/{s.command.name}</span>
                <span class="sugg-detail">{s.command.description}</span>
              </li>
            );
          })}
        </ul>
      )}
      <textarea
        ref={textarea}
        class="composer-input"
        aria-label="Message"
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `sugg-${activeIndex}` : undefined}
        placeholder={busy ? workingPlaceholder(steering) : 'Message the agent (Enter to send, Shift+Enter for a new line)'}
        rows={3}
        value={draft.text}
        onInput={(e) => {
          const el = e.currentTarget as HTMLTextAreaElement;
          recallIndex.current = undefined;
          setDraft({ ...draft, text: el.value });
          updateTrigger(el.value, el.selectionStart ?? el.value.length);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => setTrigger(undefined)}
      />
      {selectedCommand?.inputHint && <div class="input-hint muted">{selectedCommand.inputHint}</div>}
      <div class="composer-actions">
        <button type="button" class="primary-button" onClick={() => send()} title={busy ? 'Queue the message (sent when the agent finishes)' : 'Send (Enter)'}>
          <Icon name="send" />
          Send
        </button>
        {steering && <SteerButton enter={steering} onSteer={() => send(true)} />}
        <button
          type="button"
          class="secondary-button"
          disabled={!busy}
          onClick={() => session && store.post({ type: 'cancel', sessionId: session.view.sessionId })}
        >
          <Icon name="debug-stop" />
          Stop
        </button>
      </div>
    </div>
  );
}

function requestAnimationFrameSafe(cb: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(cb);
  else setTimeout(cb, 0);
}
