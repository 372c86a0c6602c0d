// A terminal the client runs for the agent: its output as it arrives, its exit, and "Open terminal" while it
// is open.
import { Icon } from './Icon';
import { useStore, useStoreVersion } from './storeHooks';

export function TerminalOutput({ terminalId, sessionId }: { terminalId: string; sessionId: string }) {
  const store = useStore();
  useStoreVersion();
  const t = store.state.terminals.get(terminalId);
  const exit = t?.exitStatus;
  return (
    <div class="terminal">
      {t?.open === true && (
        <div class="terminal-actions">
          <button type="button" class="secondary-button" onClick={() => store.post({ type: 'openTerminal', sessionId, terminalId })}>
            <Icon name="terminal" />
            Open terminal
          </button>
        </div>
      )}
      {t?.open === false && <div class="terminal-actions muted">Terminal closed</div>}
      <pre class="terminal-output" tabIndex={0} aria-label="Terminal output">
        {t?.truncated ? '…\n' : ''}
        {t?.output ?? ''}
      </pre>
      {exit && (
        <div class="terminal-exit">
          {exit.signal ? `Killed by ${exit.signal}` : `Exited with code ${exit.exitCode ?? '?'}`}
        </div>
      )}
    </div>
  );
}
