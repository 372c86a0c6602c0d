// The chat's toolbar: the Agent picker (with "Add agent…" from the ACP Registry), New session, and the
// button that opens the session history.
import { Icon } from './Icon';
import { useStore } from './storeHooks';

/** The Agent picker's last entry, which opens the ACP Registry list (no agent name can be this). */
const ADD_AGENT = '\u0000add-agent';

/** Only an image data: URI the host made from a checked icon; an <img> never runs an SVG's script anyway. */
const agentIcon = (icon: string | undefined) => (icon && /^data:image\/(svg\+xml|png);base64,[A-Za-z0-9+/=]+$/.test(icon) ? icon : undefined);

export function Toolbar() {
  const store = useStore();
  const agents = store.state.agents;
  const agentId = store.selectedAgentId();
  const icon = agentIcon(agents.find((a) => a.id === agentId)?.icon);
  return (
    <div class="toolbar">
      {icon && <img src={icon} alt="" width={16} height={16} />}
      <select
        aria-label="Agent"
        value={agentId ?? ''}
        onChange={(e) => {
          const select = e.currentTarget as HTMLSelectElement;
          if (select.value === ADD_AGENT) {
            // Not an agent: open the registry list and keep showing the agent that was chosen.
            select.value = agentId ?? '';
            store.post({ type: 'addAgentFromRegistry' });
            return;
          }
          // Choosing another agent than the active session's starts a session with it.
          store.pickAgent(select.value);
        }}
      >
        {!agents.length && <option value="">No agents configured</option>}
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
        <option value={ADD_AGENT}>Add agent…</option>
      </select>
      <button type="button" class="secondary-button" onClick={() => store.newSession(agentId)}>
        <Icon name="add" />
        New session
      </button>
      <button
        type="button"
        class="icon-button"
        aria-label="History"
        aria-expanded={store.ui.historyOpen}
        aria-controls="history-panel"
        title="Session history"
        onClick={() => {
          const open = !store.ui.historyOpen;
          store.setHistoryOpen(open);
          if (open) store.post({ type: 'refreshHistory' });
        }}
      >
        <Icon name="history" />
      </button>
    </div>
  );
}
