// The whole-turn scenario's table: one row per real agent, with how the scripted model drives it and what
// Switchboard must see (the runner is wholeTurn.test.ts; the row's shape is wholeTurn/row.ts). The generic
// checks read `expect`; `more` holds the measured particulars of one agent (titles, raw inputs, what goes back
// to the model). Each row, in wholeTurn/<agent>.ts, says in its comment what the agent does over ACP, as
// measured against the pinned version.
import { claudeRow } from './wholeTurn/claude';
import { codexRow } from './wholeTurn/codex';
import { geminiRow } from './wholeTurn/gemini';
import { clineRow, droidRow, kiloRow } from './wholeTurn/kiloClineDroid';
import { opencodeRow } from './wholeTurn/opencode';
import { qwenRow } from './wholeTurn/qwen';
import type { WholeTurnRow } from './wholeTurn/row';

export const WHOLE_TURN: readonly WholeTurnRow[] = [claudeRow, qwenRow, opencodeRow, geminiRow, codexRow, kiloRow, clineRow, droidRow];
