// The chat's visual state that survives the webview being torn down (setState): drafts, expanded sections,
// the Agent picker's choice, recall history. Small by design; read back defensively.
import type { ImageAttachment, MentionRef } from '../../src/shared/chatState';

export interface Draft {
  text: string;
  mentions: MentionRef[];
  images: ImageAttachment[];
}

/** Persisted with setState; must stay small. */
export interface UiState {
  drafts: Record<string, Draft>;
  /** Agent chosen in the Agent picker (for New session / the first prompt). */
  agentId?: string;
  /** Explicit expand/collapse choices, by item id (bounded). */
  expanded: Record<string, boolean>;
  historyOpen: boolean;
  /** Recently sent texts (Up recalls). */
  sent: string[];
}

/** The stored UI state, or a fresh one where it is missing or malformed. */
export function loadUi(raw: unknown): UiState {
  const base: UiState = { drafts: {}, expanded: {}, historyOpen: false, sent: [] };
  if (!raw || typeof raw !== 'object') return base;
  const r = raw as Partial<UiState>;
  return {
    drafts: r.drafts && typeof r.drafts === 'object' ? r.drafts : {},
    agentId: typeof r.agentId === 'string' ? r.agentId : undefined,
    expanded: r.expanded && typeof r.expanded === 'object' ? r.expanded : {},
    historyOpen: r.historyOpen === true,
    sent: Array.isArray(r.sent) ? r.sent.filter((x): x is string => typeof x === 'string') : [],
  };
}

/** What is stored: images in drafts are not (size); their text and mentions are. */
export function persistedUi(ui: UiState): UiState {
  const drafts: Record<string, Draft> = {};
  for (const [k, d] of Object.entries(ui.drafts)) drafts[k] = { text: d.text, mentions: d.mentions, images: [] };
  return { ...ui, drafts };
}
