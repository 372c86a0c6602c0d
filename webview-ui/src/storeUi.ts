// The chat's visual state that survives the webview being torn down (uiState.ts says what is kept): drafts,
// expanded sections, the Agent picker's choice, whether History is open, what was sent (Up recalls).
// Changes are stored with setState at most every 200 ms, and at once when the page goes away. A draft that
// empties (a message sent) is stored at once: the view can be hidden and torn down right after a send, and a
// save still waiting would leave the sent draft stored, to come back in the composer when the view shows.
import { type Draft, loadUi, persistedUi, type UiState } from './uiState';
import type { VsCodeApi } from './vscodeApi';

const MAX_EXPANDED = 500;
const MAX_SENT = 30;
const PERSIST_DELAY_MS = 200;

export class UiStore {
  private readonly ui: UiState;
  private persistTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly api: VsCodeApi) {
    this.ui = loadUi(api.getState());
  }

  /** The agent the user last picked, if any. */
  get agentId(): string | undefined {
    return this.ui.agentId;
  }

  get historyOpen(): boolean {
    return this.ui.historyOpen;
  }

  /** Recently sent texts, oldest first. */
  get sent(): readonly string[] {
    return this.ui.sent;
  }

  draft(key: string): Draft {
    return this.ui.drafts[key] ?? { text: '', mentions: [], images: [] };
  }

  /** An empty draft is forgotten, and that is stored at once. */
  setDraft(key: string, d: Draft): void {
    if (d.text || d.mentions.length || d.images.length) {
      this.ui.drafts[key] = d;
      this.persist();
    } else if (this.ui.drafts[key]) {
      delete this.ui.drafts[key];
      this.persistNow();
    }
  }

  /** What was typed under `from` goes to `to`, unless `to` has a draft of its own. */
  moveDraft(from: string, to: string): void {
    const d = this.ui.drafts[from];
    if (!d || this.ui.drafts[to]) return;
    this.ui.drafts[to] = d;
    delete this.ui.drafts[from];
    this.persist();
  }

  isExpanded(id: string, byDefault: boolean): boolean {
    return this.ui.expanded[id] ?? byDefault;
  }

  /** Keeps the latest MAX_EXPANDED choices. */
  setExpanded(id: string, open: boolean): void {
    delete this.ui.expanded[id];
    this.ui.expanded[id] = open;
    const keys = Object.keys(this.ui.expanded);
    if (keys.length > MAX_EXPANDED) for (const k of keys.slice(0, keys.length - MAX_EXPANDED)) delete this.ui.expanded[k];
    this.persist();
  }

  setAgentId(agentId: string): void {
    this.ui.agentId = agentId;
    this.persist();
  }

  setHistoryOpen(open: boolean): void {
    this.ui.historyOpen = open;
    this.persist();
  }

  rememberSent(text: string): void {
    if (!text.trim()) return;
    this.ui.sent = [...this.ui.sent.filter((t) => t !== text), text].slice(-MAX_SENT);
    this.persist();
  }

  persistNow(): void {
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = undefined;
    this.api.setState(persistedUi(this.ui));
  }

  private persist(): void {
    if (this.persistTimer) return;
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      this.persistNow();
    }, PERSIST_DELAY_MS);
  }
}
