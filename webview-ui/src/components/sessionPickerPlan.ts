import type { ConfigOption, ConfigSelectValue, Transcript } from '../../../src/shared/transcript';

/*
 * Which pickers a session shows. Agents offer a choice in up to two ways at once: the legacy `modes` /
 * `models` and config options (pi's "Thinking" option holds the same levels as its modes; Droid's
 * options repeat its modes), and several options may share a category (Cline's "Provider" and "Model"
 * are both `model`). Each choice is shown once, each option under its own name.
 */

export type SelectOption = Extract<ConfigOption, { kind: 'select' }>;

export interface PickerPlan {
  /** The config option shown as "Mode", else whether the legacy modes are. */
  mode?: SelectOption;
  legacyModes: boolean;
  /** The config option shown as "Model", else whether the legacy models are. */
  model?: SelectOption;
  legacyModels: boolean;
  /** Every other config option, each shown under its own name. */
  others: ConfigOption[];
}

export function pickerPlan(t: Transcript): PickerPlan {
  const selects = t.configOptions.filter((o): o is SelectOption => o.kind === 'select');
  const mode = primary(selects, 'mode');
  const model = primary(selects, 'model');
  const modeIds = t.modes?.availableModes.map((m) => m.id) ?? [];
  const modelIds = t.models?.availableModels.map((m) => m.modelId) ?? [];
  return {
    mode,
    legacyModes: mode === undefined && modeIds.length > 0 && !selects.some((o) => sameChoices(o.options, modeIds)),
    model,
    legacyModels: model === undefined && modelIds.length > 0 && !selects.some((o) => sameChoices(o.options, modelIds)),
    others: t.configOptions.filter((o) => o !== mode && o !== model),
  };
}

/**
 * The option of a category shown under the category's picker name: the one that names itself so
 * (id or name "model"), else the first. The others of that category keep their own names.
 */
function primary(selects: SelectOption[], category: 'mode' | 'model'): SelectOption | undefined {
  const of = selects.filter((o) => o.category === category);
  return of.find((o) => o.id.toLowerCase() === category || o.name.trim().toLowerCase() === category) ?? of[0];
}

/** A config option that offers exactly the legacy list's choices says the same thing. */
function sameChoices(options: ConfigSelectValue[], ids: string[]): boolean {
  const values = new Set(options.map((o) => o.value));
  return values.size === new Set(ids).size && ids.every((id) => values.has(id));
}

/** A picker's name as shown: the option's own name, else its id (never blank). */
export function optionLabel(o: ConfigOption): string {
  return o.name.trim() || o.id;
}

/**
 * The choices of a picker, with its current value first when the list lacks it (a select whose value
 * is not among its options shows blank).
 */
export function choicesWithCurrent<T>(choices: T[], current: string, valueOf: (c: T) => string, make: (value: string) => T): T[] {
  return choices.some((c) => valueOf(c) === current) ? choices : [make(current), ...choices];
}
