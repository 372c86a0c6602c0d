import './setupDom';
import * as assert from 'node:assert/strict';
import type { AgentProvidersView, AgentView } from '../../../src/shared/chatState';
import { change, click, getByRole, mount, queryAllByRole, snapshot, typeInto, type Harness } from './helpers';

const PROVIDERS: AgentProvidersView = {
  providers: [
    { providerId: 'main', supported: ['anthropic', 'bedrock'], required: true, current: { apiType: 'anthropic', baseUrl: 'http://127.0.0.1:4000' } },
    {
      providerId: 'openai',
      supported: ['openai', 'azure'],
      required: false,
      current: { apiType: 'azure', baseUrl: 'https://gw.example/v1' },
      saved: { apiType: 'azure', baseUrl: 'https://gw.example/v1', headerNames: ['api-key'] },
    },
    { providerId: 'spare', supported: ['openai'], required: false, current: null },
  ],
};

function withProviders(providers: AgentProvidersView | undefined): Harness {
  const snap = snapshot();
  snap.agents[0] = { ...snap.agents[0], ...(providers ? { providers } : {}) };
  return mount(snap);
}

/** A provider's row (a list item named after it). */
function item(h: Harness, providerId: string): Element {
  const found = h.root.querySelector(`li[aria-label="Provider ${providerId}"]`);
  assert.ok(found, `the row of ${providerId}`);
  return found;
}

function sendAgent(h: Harness, over: Partial<AgentView>): void {
  h.send({ type: 'agents', defaultAgentId: 'Fake Agent', agents: [{ id: 'Fake Agent', name: 'Fake Agent', status: 'ready', ...over }] });
}

describe('webview: Model provider settings', () => {
  let h: Harness;
  afterEach(() => h.unmount());

  it('is not shown when the agent does not offer providers', () => {
    h = withProviders(undefined);
    assert.equal(queryAllByRole(h.root, 'region', 'Model provider').length, 0);
    assert.equal(queryAllByRole(h.root, 'button', 'Model provider').length, 0);
  });

  it('shows each provider with where it routes, "disabled", and Disable only for optional enabled ones', () => {
    h = withProviders(PROVIDERS);
    const toggle = getByRole(h.root, 'button', 'Model provider');
    assert.match(toggle.textContent ?? '', /main: http:\/\/127\.0\.0\.1:4000, openai: https:\/\/gw\.example\/v1, spare: disabled/);
    click(toggle);
    const main = item(h, 'main');
    assert.match(main.textContent ?? '', /anthropic · http:\/\/127\.0\.0\.1:4000.*\(required\)/);
    assert.equal(queryAllByRole(h.root, 'button', 'Disable main').length, 0, 'a required provider is never offered Disable');
    assert.equal(queryAllByRole(h.root, 'button', 'Disable spare').length, 0, 'already disabled');
    assert.match(item(h, 'spare').textContent ?? '', /spare\s*disabled/);
    assert.match(item(h, 'openai').textContent ?? '', /Switchboard applies at each start: azure · https:\/\/gw\.example\/v1 with api-key/);
    assert.match(getByRole(h.root, 'region', 'Model provider').textContent ?? '', /A change applies to sessions started after it\./);
    click(getByRole(h.root, 'button', 'Disable openai'));
    assert.deepEqual(h.last('providerAction'), { type: 'providerAction', agentId: 'Fake Agent', action: { kind: 'disable', providerId: 'openai' } });
  });

  it('sets a provider: API type from `supported`, base URL, headers (a stored one left empty is kept)', () => {
    h = withProviders(PROVIDERS);
    click(getByRole(h.root, 'button', 'Model provider'));
    click(getByRole(h.root, 'button', 'Change openai'));
    const form = getByRole(h.root, 'form', 'Set provider openai');
    const apiType = getByRole(form, 'combobox', /API type/) as HTMLSelectElement;
    assert.deepEqual(Array.from(apiType.options).map((o) => o.value), ['openai', 'azure']);
    assert.equal(apiType.value, 'azure');
    change(apiType, 'openai');
    const url = getByRole(form, 'textbox', /Base URL/) as HTMLInputElement;
    assert.equal(url.value, 'https://gw.example/v1');
    typeInto(url, 'https://gw.example/v2');
    assert.equal((getByRole(form, 'textbox', 'Header 1 name') as HTMLInputElement).value, 'api-key');
    const stored = form.querySelector('input[aria-label="Header 1 value"]') as HTMLInputElement;
    assert.equal(stored.type, 'password');
    assert.match(stored.placeholder, /stored: leave empty to keep/);
    click(getByRole(form, 'button', 'Add header'));
    typeInto(getByRole(form, 'textbox', 'Header 2 name') as HTMLInputElement, 'X-Route');
    typeInto(form.querySelector('input[aria-label="Header 2 value"]') as HTMLInputElement, 'eu');
    click(getByRole(form, 'button', 'Apply'));
    assert.deepEqual(h.last('providerAction'), {
      type: 'providerAction',
      agentId: 'Fake Agent',
      action: { kind: 'set', providerId: 'openai', apiType: 'openai', baseUrl: 'https://gw.example/v2', headers: [{ name: 'api-key' }, { name: 'X-Route', value: 'eu' }] },
    });
    // Taken: the form starts again from the kept choice, every header stored (left empty, kept).
    const openai = PROVIDERS.providers![1];
    sendAgent(h, { providers: { providers: [{ ...openai, saved: { apiType: 'openai', baseUrl: 'https://gw.example/v2', headerNames: ['api-key', 'X-Route'] } }] } });
    const again = getByRole(h.root, 'form', 'Set provider openai');
    assert.equal((getByRole(again, 'textbox', /Base URL/) as HTMLInputElement).value, 'https://gw.example/v2');
    assert.match((again.querySelector('input[aria-label="Header 2 value"]') as HTMLInputElement).placeholder, /stored: leave empty to keep/);
    assert.equal((again.querySelector('input[aria-label="Header 2 value"]') as HTMLInputElement).value, '');
  });

  it('says errors as an alert (with Dismiss) and successes as a status, outside the collapsed panel', () => {
    h = withProviders(PROVIDERS);
    sendAgent(h, { providers: { ...PROVIDERS, error: 'Fake Agent rejected the provider change: bad (-32602). Its provider settings stay as they were.' } });
    const alert = getByRole(h.root, 'alert');
    assert.match(alert.textContent ?? '', /rejected the provider change: bad \(-32602\)/);
    click(getByRole(alert, 'button', 'Dismiss'));
    assert.deepEqual(h.last('providerAction')?.action, { kind: 'dismiss' });
    sendAgent(h, { providers: { ...PROVIDERS, notice: 'main now sends model calls to x.' } });
    assert.equal(queryAllByRole(h.root, 'alert').length, 0);
    assert.ok(queryAllByRole(h.root, 'status').some((e) => /main now sends model calls to x\./.test(e.textContent ?? '')), 'a status says it');
  });

  it('while the list is being read it says so; busy disables Apply and Refresh', () => {
    h = withProviders({});
    click(getByRole(h.root, 'button', 'Model provider'));
    assert.match(getByRole(h.root, 'region', 'Model provider').textContent ?? '', /Reading the agent's providers…/);
    sendAgent(h, { providers: { ...PROVIDERS, busy: true } });
    assert.equal((getByRole(h.root, 'button', /Refresh providers/) as HTMLButtonElement).disabled, true);
    click(getByRole(h.root, 'button', 'Change main'));
    assert.equal((getByRole(h.root, 'button', 'Apply') as HTMLButtonElement).disabled, true);
  });
});
