// "Restore checkpoint" on a user message: asks the host what a restore would change, shown in the message's
// CheckpointCard.
import { Icon } from './Icon';
import { useStore } from './storeHooks';

export function RestoreCheckpointButton({ sessionId, itemId }: { sessionId: string; itemId: string }) {
  const store = useStore();
  return (
    <button
      type="button"
      class="icon-button restore-checkpoint"
      aria-label="Restore files to before this message"
      title="Restore checkpoint: put the files back as they were before this message"
      onClick={() => {
        store.setCheckpoint(sessionId, itemId, { phase: 'loading' });
        store.post({ type: 'checkpointAction', sessionId, itemId, action: { kind: 'preview' } });
      }}
    >
      <Icon name="history" />
    </button>
  );
}
