import type { ConfigSelectValue } from '../../../src/shared/transcript';
import type { SessionState } from '../store';
import { useStore } from './common';
import { choicesWithCurrent, optionLabel, pickerPlan, type SelectOption } from './sessionPickerPlan';

/** A select's choices, in the agent's groups. */
function Choices({ option }: { option: SelectOption }) {
  const choices = choicesWithCurrent<ConfigSelectValue>(option.options, option.currentValue, (c) => c.value, (value) => ({ value, name: value || 'None' }));
  const byGroup = new Map<string, ConfigSelectValue[]>();
  for (const c of choices) {
    const g = c.group ?? '';
    byGroup.set(g, [...(byGroup.get(g) ?? []), c]);
  }
  return (
    <>
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
    </>
  );
}

/** Mode, Model and the session's other config options, each choice once (see sessionPickerPlan.ts). */
export function SessionPickers({ session }: { session: SessionState }) {
  const store = useStore();
  const t = session.transcript;
  const sessionId = session.view.sessionId;
  const plan = pickerPlan(t);
  const setOption = (configId: string, value: string | boolean) => store.post({ type: 'setConfigOption', sessionId, configId, value });
  const value = (e: Event) => (e.currentTarget as HTMLSelectElement).value;
  const describe = (o: SelectOption) => [optionLabel(o), o.description].filter(Boolean).join(': ');
  const modes = t.modes && plan.legacyModes ? t.modes : undefined;
  const models = t.models && plan.legacyModels ? t.models : undefined;
  return (
    <div class="pickers">
      {plan.mode && (
        <select aria-label="Mode" title={describe(plan.mode)} value={plan.mode.currentValue} onChange={(e) => setOption(plan.mode!.id, value(e))}>
          <Choices option={plan.mode} />
        </select>
      )}
      {modes && (
        <select aria-label="Mode" value={modes.currentModeId} onChange={(e) => store.post({ type: 'setMode', sessionId, modeId: value(e) })}>
          {choicesWithCurrent(modes.availableModes, modes.currentModeId, (m) => m.id, (id) => ({ id, name: id || 'None' })).map((m) => (
            <option key={m.id} value={m.id} title={m.description}>
              {m.name || m.id}
            </option>
          ))}
        </select>
      )}
      {plan.model && (
        <select aria-label="Model" title={describe(plan.model)} value={plan.model.currentValue} onChange={(e) => setOption(plan.model!.id, value(e))}>
          <Choices option={plan.model} />
        </select>
      )}
      {models && (
        <select aria-label="Model" value={models.currentModelId} onChange={(e) => store.post({ type: 'setModel', sessionId, modelId: value(e) })}>
          {choicesWithCurrent(models.availableModels, models.currentModelId, (m) => m.modelId, (modelId) => ({ modelId, name: modelId || 'None' })).map((m) => (
            <option key={m.modelId} value={m.modelId} title={m.description}>
              {m.name || m.modelId}
            </option>
          ))}
        </select>
      )}
      {plan.others.map((o) =>
        o.kind === 'select' ? (
          <span key={o.id} class="picker">
            <span class="picker-label" aria-hidden="true">
              {optionLabel(o)}
            </span>
            <select aria-label={optionLabel(o)} title={o.description} value={o.currentValue} onChange={(e) => setOption(o.id, value(e))}>
              <Choices option={o} />
            </select>
          </span>
        ) : (
          <label key={o.id} class="checkbox" title={o.description}>
            <input type="checkbox" checked={o.currentValue} onChange={(e) => setOption(o.id, (e.currentTarget as HTMLInputElement).checked)} />
            {optionLabel(o)}
          </label>
        ),
      )}
    </div>
  );
}
