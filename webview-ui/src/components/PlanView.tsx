// A plan in the transcript: its entries with their status and priority, how many are done, the plan's file
// (when the agent keeps one) and its Markdown.
import { planFileName } from '../../../src/shared/planFile';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { Icon } from './Icon';
import { useStore, useStoreVersion } from './storeHooks';
import { Markdown } from './Markdown';

const PLAN_STATUS: Record<string, { icon: string; label: string }> = {
  pending: { icon: 'circle-large-outline', label: 'Pending' },
  in_progress: { icon: 'arrow-circle-right', label: 'In progress' },
  completed: { icon: 'pass-filled', label: 'Completed' },
};

/** A file plan: "Open plan" names the file (relative to the session's folders when inside one); the host opens it. */
function PlanFile({ sessionId, planId, uri }: { sessionId: string; planId: string; uri: string }) {
  const store = useStore();
  useStoreVersion();
  const { name, where } = planFileName(uri, store.state.sessions.get(sessionId)?.view.folders);
  const error = store.planFileError(sessionId, planId, uri);
  return (
    <div class="plan-file">
      <button
        type="button"
        class="link-button"
        title={where ?? uri}
        aria-label={`Open plan ${where ?? name}`}
        onClick={() => store.post({ type: 'openPlanFile', sessionId, planId, uri })}
      >
        <Icon name="go-to-file" />
        Open plan <span class="plan-file-name">{name}</span>
      </button>
      {where && where !== name && <span class="muted plan-file-where">{where}</span>}
      {error && (
        <div class="error-text" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

export function PlanView({ item, sessionId }: { item: Extract<TranscriptItem, { kind: 'plan' }>; sessionId: string }) {
  const { entries, markdown } = item;
  const done = entries.filter((e) => e.status === 'completed').length;
  return (
    <div class="plan" role="group" aria-label="Plan">
      <div class="item-header">
        <Icon name="checklist" />
        <span>Plan</span>
        {entries.length > 0 && (
          <span class="muted">
            {done} of {entries.length} done
          </span>
        )}
      </div>
      {entries.length > 0 && (
        <ol class="plan-entries">
          {entries.map((e, i) => {
            const st = PLAN_STATUS[e.status] ?? { icon: 'circle-large-outline', label: e.status };
            return (
              <li key={i} class={`plan-entry status-${e.status}`}>
                <Icon name={st.icon} />
                <span class="plan-text">{e.content}</span>
                <span class="visually-hidden">, {st.label}</span>
                <span class={`priority priority-${e.priority}`}>{e.priority}</span>
              </li>
            );
          })}
        </ol>
      )}
      {item.fileUri !== undefined && item.planId !== undefined && <PlanFile sessionId={sessionId} planId={item.planId} uri={item.fileUri} />}
      {markdown && <Markdown text={markdown} />}
    </div>
  );
}
