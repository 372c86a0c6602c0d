import type { SessionState } from '../store';
import { useStore } from './storeHooks';
import { Picker, type PickerChoices } from './Picker';
import { optionLabel, pickerPlan, type SelectOption } from './sessionPickerPlan';

/** Mode, Model and the session's other config options, each choice once (see sessionPickerPlan.ts). */
export function SessionPickers({ session }: { session: SessionState }) {
  const store = useStore();
  const t = session.transcript;
  const sessionId = session.view.sessionId;
  const plan = pickerPlan(t);
  const setOption = (configId: string, value: string | boolean) => store.post({ type: 'setConfigOption', sessionId, configId, value });
  const fromOption = (o: SelectOption, title = o.description): PickerChoices => ({ current: o.currentValue, choices: o.options, title, onPick: (v) => setOption(o.id, v) });
  const describe = (o: SelectOption) => [optionLabel(o), o.description].filter(Boolean).join(': ');
  const modes = t.modes && plan.legacyModes ? t.modes : undefined;
  const models = t.models && plan.legacyModels ? t.models : undefined;
  const mode: PickerChoices | undefined = plan.mode
    ? fromOption(plan.mode, describe(plan.mode))
    : modes && {
        current: modes.currentModeId,
        choices: modes.availableModes.map((m) => ({ value: m.id, name: m.name, description: m.description })),
        onPick: (modeId) => store.post({ type: 'setMode', sessionId, modeId }),
      };
  const model: PickerChoices | undefined = plan.model
    ? fromOption(plan.model, describe(plan.model))
    : models && {
        current: models.currentModelId,
        choices: models.availableModels.map((m) => ({ value: m.modelId, name: m.name, description: m.description })),
        onPick: (modelId) => store.post({ type: 'setModel', sessionId, modelId }),
      };
  return (
    <div class="pickers">
      {mode && <Picker label="Mode" {...mode} />}
      {model && <Picker label="Model" {...model} />}
      {plan.others.map((o) =>
        o.kind === 'select' ? (
          <span key={o.id} class="picker">
            <span class="picker-label" aria-hidden="true">
              {optionLabel(o)}
            </span>
            <Picker label={optionLabel(o)} {...fromOption(o)} />
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
