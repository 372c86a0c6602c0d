import './setupDom';
import * as assert from 'node:assert/strict';
import type { ConfigOption, Transcript } from '../../../src/shared/transcript';
import { accessibleName, change, click, getByRole, mount, queryAllByRole, snapshot } from './helpers';

const select = (id: string, name: string, category: string | undefined, currentValue: string, values: string[]): ConfigOption => ({
  kind: 'select', id, name, ...(category !== undefined ? { category } : {}), currentValue, options: values.map((value) => ({ value, name: value.toUpperCase() })),
});

function pickers(t: Partial<Transcript>) {
  const h = mount(snapshot([], {}, t));
  const bar = h.root.querySelector('.pickers') as HTMLElement;
  const names = queryAllByRole(bar, 'combobox').map(accessibleName);
  return { h, bar, names };
}

describe('webview: session pickers', () => {
  it('Cline: "Provider" and "Model" (both category model) are two pickers, each under its own name, none blank', () => {
    const { h, bar, names } = pickers({
      configOptions: [
        select('mode', 'Session Mode', 'mode', 'act', ['plan', 'act']),
        select('provider', 'Provider', 'model', 'openai-compatible', ['openai-compatible', 'anthropic']),
        // A custom provider's model that is not in the list the agent sent.
        select('model', 'Model', 'model', 'scripted-model', ['gpt-x']),
      ],
    });
    assert.deepEqual(names, ['Mode', 'Model', 'Provider']);
    const model = getByRole(bar, 'combobox', 'Model') as HTMLSelectElement;
    assert.equal(model.value, 'scripted-model', 'the current model is shown even though it is not in the list');
    assert.equal(model.selectedOptions[0].textContent, 'scripted-model');
    const provider = getByRole(bar, 'combobox', 'Provider') as HTMLSelectElement;
    assert.equal(provider.value, 'openai-compatible');
    assert.equal(provider.closest('.picker')!.querySelector('.picker-label')!.textContent, 'Provider', 'its name is shown, not only announced');
    change(provider, 'anthropic');
    assert.deepEqual(h.last('setConfigOption'), { type: 'setConfigOption', sessionId: 's1', configId: 'provider', value: 'anthropic' });
    change(model, 'gpt-x');
    assert.deepEqual(h.last('setConfigOption'), { type: 'setConfigOption', sessionId: 's1', configId: 'model', value: 'gpt-x' });
    for (const s of queryAllByRole(bar, 'combobox') as HTMLSelectElement[]) assert.ok(s.selectedIndex >= 0 && s.selectedOptions[0].textContent, `${accessibleName(s)} is not blank`);
    h.unmount();
  });

  it('pi: legacy modes that are the "Thinking" option\'s levels, and legacy models that are the Model option, show once', () => {
    const { h, names } = pickers({
      modes: { currentModeId: 'medium', availableModes: ['off', 'low', 'medium', 'high'].map((id) => ({ id, name: `Thinking: ${id}` })) },
      models: { currentModelId: 'local/scripted', availableModels: [{ modelId: 'local/scripted', name: 'scripted' }] },
      configOptions: [select('model', 'Model', 'model', 'local/scripted', ['local/scripted']), select('thought_level', 'Thinking', 'thought_level', 'medium', ['off', 'low', 'medium', 'high'])],
    });
    assert.deepEqual(names, ['Model', 'Thinking']);
    h.unmount();
  });

  it('Droid: a config option of category mode supersedes the legacy modes; one with the same choices and no category does too', () => {
    const autonomy = ['normal', 'auto-low', 'auto-medium', 'auto-high'];
    const modes = { currentModeId: 'normal', availableModes: autonomy.map((id) => ({ id, name: id })) };
    const withCategory = pickers({ modes, configOptions: [select('mode', 'Autonomy', 'mode', 'normal', autonomy)] });
    assert.deepEqual(withCategory.names, ['Mode']);
    change(getByRole(withCategory.bar, 'combobox', 'Mode'), 'auto-high');
    assert.deepEqual(withCategory.h.last('setConfigOption'), { type: 'setConfigOption', sessionId: 's1', configId: 'mode', value: 'auto-high' });
    assert.equal(withCategory.h.last('setMode'), undefined);
    withCategory.h.unmount();
    const uncategorised = pickers({ modes, configOptions: [select('autonomy', 'Autonomy level', undefined, 'normal', [...autonomy].reverse())] });
    assert.deepEqual(uncategorised.names, ['Autonomy level']);
    uncategorised.h.unmount();
  });

  it('keeps the legacy pickers when no config option offers the same choices', () => {
    const { h, bar, names } = pickers({
      modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'plan', name: 'Plan' }] },
      models: { currentModelId: 'gone', availableModels: [{ modelId: 'm1', name: 'Model One' }] },
      configOptions: [select('effort', 'Effort', '_vendor_effort', 'low', ['low', 'default'])],
    });
    assert.deepEqual(names, ['Mode', 'Model', 'Effort']);
    const model = getByRole(bar, 'combobox', 'Model') as HTMLSelectElement;
    assert.equal(model.value, 'gone', 'a current model missing from the list is shown, not a blank picker');
    change(model, 'm1');
    assert.deepEqual(h.last('setModel'), { type: 'setModel', sessionId: 's1', modelId: 'm1' });
    h.unmount();
  });

  it('names an option with an unknown category or an empty name by what it has, and shows boolean options by name', () => {
    const { h, bar, names } = pickers({
      configOptions: [
        select('sandbox', '  ', 'future_category', 'on', ['on', 'off']),
        { kind: 'select', id: 'empty', name: 'Empty list', currentValue: '', options: [] },
        { kind: 'boolean', id: 'web', name: 'Web search', currentValue: true },
      ],
    });
    assert.deepEqual(names, ['sandbox', 'Empty list']);
    assert.equal((getByRole(bar, 'combobox', 'Empty list') as HTMLSelectElement).selectedOptions[0].textContent, 'None');
    const web = getByRole(bar, 'checkbox', 'Web search') as HTMLInputElement;
    assert.equal(web.checked, true);
    click(web);
    assert.deepEqual(h.last('setConfigOption'), { type: 'setConfigOption', sessionId: 's1', configId: 'web', value: false });
    h.unmount();
  });
});
