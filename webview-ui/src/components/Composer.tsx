import { useRef } from 'preact/hooks';
import { NO_SESSION, type SessionState } from '../store';
import { Icon } from './Icon';
import { useStore } from './storeHooks';
import { ComposerAttachments } from './ComposerAttachments';
import { ComposerSuggestions, SUGGESTIONS_ID } from './ComposerSuggestions';
import { droppedMentions, imageFiles, readImage } from './composerDrop';
import { canSend, postDraft } from './composerSend';
import { ComposerNotice } from './ComposerNotice';
import { SteerButton, steeringNow, workingPlaceholder } from './Steer';
import { useComposerDraft } from './useComposerDraft';
import { useSentRecall } from './useSentRecall';
import { useSuggestions, withSuggestion, type Suggestion } from './useSuggestions';
import { useTypingKeys } from './useTypingKeys';

/** The prompt box with its completion list, attachments, Send, Steer and Stop. */
export function Composer({ session }: { session: SessionState | undefined }) {
  const store = useStore();
  const key = session?.view.sessionId ?? NO_SESSION;
  const textarea = useRef<HTMLTextAreaElement>(null);
  const { draft, current, setDraft, typed, notice, setNotice } = useComposerDraft(key, textarea);
  const completion = useSuggestions(session, key);
  const recall = useSentRecall();
  const typingKeys = useTypingKeys();
  const { trigger, suggestions, open, activeIndex } = completion;

  const busy = session !== undefined && session.view.turn !== 'idle';
  const steering = steeringNow(session);
  const stop = () => session && store.post({ type: 'cancel', sessionId: session.view.sessionId });

  const accept = (s: Suggestion) => {
    if (!trigger) return;
    const el = textarea.current;
    const d = current();
    const next = withSuggestion(d, trigger, el?.selectionStart ?? d.text.length, s);
    setDraft(next.draft);
    completion.close();
    requestAnimationFrameSafe(() => {
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  };

  /** `steer`: into the running turn (the host sends it like a prompt when no turn runs any more). */
  const send = (steer = false) => {
    const d = current();
    if (!canSend(d)) return;
    postDraft(store, session, d, steer);
    recall.reset();
    setDraft({ text: '', mentions: [], images: [] });
    completion.close();
    setNotice(undefined);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    typingKeys.keydown(e);
    if (open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        completion.move(e.key === 'ArrowDown');
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        e.preventDefault();
        accept(suggestions[activeIndex]);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        completion.close();
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send(steering === 'steer');
      return;
    }
    if (e.key === 'ArrowUp' && !e.shiftKey) {
      const d = current();
      const previous = recall.previous(d.text, (e.currentTarget as HTMLTextAreaElement).selectionStart === 0);
      if (previous !== undefined) {
        e.preventDefault();
        setDraft({ ...d, text: previous });
      }
      return;
    }
    if (e.key === 'Escape' && busy && session) {
      // Escape in the composer stops the turn (like Copilot Chat), only while busy.
      e.preventDefault();
      stop();
    }
  };

  /** Attaches the images among `files`; false when there are none. */
  const addImages = async (files: File[]) => {
    const images = imageFiles(files);
    if (!images.length) return false;
    if (!session?.view.capabilities.image) {
      store.showToast('This agent does not accept images.');
      store.changed();
      return true;
    }
    const read = await Promise.all(images.map(readImage));
    const d = current();
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
    const mentions = droppedMentions(dt.getData('text/uri-list') || '');
    if (mentions.length) {
      const d = current();
      const text = d.text + (d.text && !d.text.endsWith(' ') ? ' ' : '') + mentions.map((m) => `@${m.label}`).join(' ') + ' ';
      setDraft({ ...d, text, mentions: [...d.mentions, ...mentions] });
    }
  };

  const typedCommand = commandTyped(draft.text);
  const selectedCommand = typedCommand === undefined ? undefined : session?.transcript.commands.find((c) => c.name === typedCommand);

  return (
    <div class="composer" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      {notice && <ComposerNotice text={notice} onDismiss={() => setNotice(undefined)} />}
      <ComposerAttachments draft={draft} onChange={(change) => setDraft({ ...current(), ...change })} />
      {open && trigger && <ComposerSuggestions kind={trigger.kind} suggestions={suggestions} activeIndex={activeIndex} onAccept={accept} />}
      <textarea
        ref={textarea}
        class="composer-input"
        aria-label="Message"
        aria-autocomplete="list"
        aria-controls={open ? SUGGESTIONS_ID : undefined}
        aria-activedescendant={open ? `sugg-${activeIndex}` : undefined}
        placeholder={busy ? workingPlaceholder(steering) : 'Message the agent (Enter to send, Shift+Enter for a new line)'}
        rows={3}
        value={draft.text}
        onInput={(e) => {
          const el = e.currentTarget as HTMLTextAreaElement;
          recall.reset();
          // The textarea shows what was typed: render again only when the command hint below it changes.
          typed(el.value, (before, after) => commandTyped(before) !== commandTyped(after));
          completion.update(el.value, el.selectionStart ?? el.value.length);
        }}
        onKeyDown={onKeyDown}
        onKeyUp={(e) => typingKeys.keyup(e)}
        onPaste={onPaste}
        onBlur={() => completion.close()}
      />
      {selectedCommand?.inputHint && <div class="input-hint muted">{selectedCommand.inputHint}</div>}
      <div class="composer-actions">
        <button type="button" class="primary-button" onClick={() => send()} title={busy ? 'Queue the message (sent when the agent finishes)' : 'Send (Enter)'}>
          <Icon name="send" />
          Send
        </button>
        {steering && <SteerButton enter={steering} onSteer={() => send(true)} />}
        <button type="button" class="secondary-button" disabled={!busy} onClick={stop}>
          <Icon name="debug-stop" />
          Stop
        </button>
      </div>
    </div>
  );
}

/** The slash command the draft is (`/name` and nothing else), whose input hint is shown. */
function commandTyped(text: string): string | undefined {
  return /^\/(\S+)\s*$/.exec(text)?.[1];
}

function requestAnimationFrameSafe(cb: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(cb);
  else setTimeout(cb, 0);
}
