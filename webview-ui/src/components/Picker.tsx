import type { ConfigSelectValue } from '../../../src/shared/transcript';
import { choicesWithCurrent } from './sessionPickerPlan';

/** What a picker offers, whatever the agent sent it as (a config option, the legacy modes or models). */
export interface PickerChoices {
  current: string;
  choices: ConfigSelectValue[];
  /** The select's tooltip. */
  title?: string;
  onPick(value: string): void;
}

/**
 * One select of the session's pickers (Mode, Model, any other select option), named `label`, its choices in
 * the agent's groups. A current value the list lacks is shown first (a select whose value is not among its
 * options shows blank).
 */
export function Picker({ label, current, choices, title, onPick }: PickerChoices & { label: string }) {
  const all = choicesWithCurrent(choices, current, (c) => c.value, (value) => ({ value, name: value || 'None' }));
  const byGroup = new Map<string, ConfigSelectValue[]>();
  for (const c of all) {
    const g = c.group ?? '';
    byGroup.set(g, [...(byGroup.get(g) ?? []), c]);
  }
  return (
    <select aria-label={label} title={title} value={current} onChange={(e) => onPick((e.currentTarget as HTMLSelectElement).value)}>
      {[...byGroup].map(([g, list]) => {
        const options = list.map((c) => (
          <option key={c.value} value={c.value} title={c.description}>
            {c.name || c.value}
          </option>
        ));
        return g ? (
          <optgroup key={g} label={g}>
            {options}
          </optgroup>
        ) : (
          options
        );
      })}
    </select>
  );
}
