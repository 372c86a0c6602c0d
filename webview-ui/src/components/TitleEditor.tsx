// The inline editor a session title is renamed in (a tab's and the header's).
import { useState } from 'preact/hooks';
import { useStore } from './storeHooks';

/** Longest title a rename accepts (the host checks it again). */
const MAX_TITLE = 200;

/** An inline title editor: Enter renames, Escape or leaving it cancels. */
export function TitleEditor({ sessionId, title, done }: { sessionId: string; title: string; done: () => void }) {
  const store = useStore();
  const [value, setValue] = useState(title);
  const trimmed = value.trim();
  // Said, not cut: a maxLength would drop the end of a pasted title without a word.
  const problem = !trimmed
    ? 'A session title cannot be empty.'
    : trimmed.length > MAX_TITLE
      ? `A session title can have at most ${MAX_TITLE} characters; this one has ${trimmed.length}.`
      : undefined;
  const submit = () => {
    if (problem) return;
    if (trimmed !== title) store.post({ type: 'renameSession', sessionId, title: trimmed });
    done();
  };
  return (
    <form
      class="title-editor"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <input
        type="text"
        aria-label="Session title"
        value={value}
        ref={(el) => el?.focus()}
        aria-invalid={problem ? true : undefined}
        onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={(e) => e.key === 'Escape' && done()}
        onBlur={done}
      />
      {problem && <span class="error-text" role="alert">{problem}</span>}
    </form>
  );
}
