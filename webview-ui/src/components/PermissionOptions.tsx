// A permission request's answers: one button per option the agent offers.
import type { PendingPermission } from '../../../src/shared/chatState';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

const OPTION_ICON: Record<string, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

/** One real <button> per option, named exactly by the option's name. */
export function PermissionOptions({ request, sessionId }: { request: PendingPermission; sessionId: string }) {
  const store = useStore();
  return (
    <div class="permission-options">
      {request.options.map((o) => (
        <button
          key={o.optionId}
          type="button"
          class={`permission-option kind-${o.kind}${o.kind.startsWith('allow') ? ' primary-button' : ' secondary-button'}`}
          onClick={() => store.post({ type: 'permissionAnswer', sessionId, requestId: request.requestId, answer: { optionId: o.optionId } })}
        >
          <Icon name={OPTION_ICON[o.kind] ?? 'circle'} />
          {o.name}
        </button>
      ))}
    </div>
  );
}
