import * as assert from 'assert';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { matchAutoApprove as matchLayers, pickAllowOption, ruleFor as ruleForLayers, type AutoApproveConfig, type AutoApproveLayer } from '../../../src/host/permissions/autoApproveRules';

const user = (config: AutoApproveConfig | undefined): AutoApproveLayer[] => [{ config, source: 'user' }];
const matchAutoApprove = (config: AutoApproveConfig | undefined, ...rest: [string | null | undefined, string | undefined, PermissionOption[]]) => matchLayers(user(config), ...rest);
const ruleFor = (config: AutoApproveConfig | undefined, kind: string, agent: string | undefined) => ruleForLayers(user(config), kind, agent);

const options: PermissionOption[] = [
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

describe('host: auto-approve rules', () => {
  it('global kind rules apply to every agent', () => {
    const m = matchAutoApprove({ read: true, search: true }, 'read', 'Gemini CLI', options);
    assert.strictEqual(m?.optionId, 'once');
    assert.strictEqual(m?.agent, undefined);
    assert.match(m?.description ?? '', /"read" is allowed for every agent \(switchboard.autoApprove in your user settings\)/);
    assert.strictEqual(m?.source, 'user');
  });

  it('asks when no rule, a false rule, or a non-boolean value', () => {
    assert.strictEqual(matchAutoApprove({ read: true }, 'edit', 'A', options), undefined);
    assert.strictEqual(matchAutoApprove({ edit: false }, 'edit', 'A', options), undefined);
    assert.strictEqual(matchAutoApprove({ edit: 'yes' }, 'edit', 'A', options), undefined);
    assert.strictEqual(matchAutoApprove(undefined, 'edit', 'A', options), undefined);
  });

  it("an agent's own entry wins over the global rule, both ways", () => {
    const cfg = { execute: true, Codex: { execute: false }, 'Claude Agent': { edit: true } };
    assert.strictEqual(matchAutoApprove(cfg, 'execute', 'Codex', options), undefined);
    assert.strictEqual(matchAutoApprove(cfg, 'execute', 'Gemini CLI', options)?.optionId, 'once');
    const m = matchAutoApprove(cfg, 'edit', 'Claude Agent', options);
    assert.strictEqual(m?.agent, 'Claude Agent');
    assert.match(m?.description ?? '', /for Claude Agent/);
    assert.strictEqual(matchAutoApprove(cfg, 'edit', 'Codex', options), undefined);
  });

  it('"*" matches every kind; a missing kind counts as "other"', () => {
    assert.ok(matchAutoApprove({ '*': true }, 'delete', undefined, options));
    assert.ok(matchAutoApprove({ other: true }, undefined, undefined, options));
    assert.strictEqual(matchAutoApprove({ read: true }, null, undefined, options), undefined);
  });

  it('an agent table is not mistaken for a kind, and without an allow option nothing is approved', () => {
    assert.deepStrictEqual(ruleFor({ read: { edit: true } }, 'read', undefined), undefined);
    assert.strictEqual(matchAutoApprove({ read: true }, 'read', undefined, [options[2]]), undefined);
  });

  it('prefers allow_once over allow_always', () => {
    assert.strictEqual(pickAllowOption(options)?.optionId, 'once');
    assert.strictEqual(pickAllowOption([options[0]])?.optionId, 'always');
  });

  it('layers: a confirmed workspace rule wins at its level and says so; the exact kind beats "*" across layers', () => {
    const layers: AutoApproveLayer[] = [
      { config: { execute: false, read: true }, source: 'user' },
      { config: { '*': true, Codex: { read: false } }, source: 'workspace' },
    ];
    assert.strictEqual(matchLayers(layers, 'execute', 'Gemini CLI', options), undefined, "the user's exact execute: false beats the workspace's *");
    const edit = matchLayers(layers, 'edit', 'Gemini CLI', options);
    assert.strictEqual(edit?.source, 'workspace');
    assert.match(edit?.description ?? '', /workspace settings you confirmed/);
    assert.strictEqual(matchLayers(layers, 'read', 'Codex', options), undefined, "the workspace's agent rule beats the user's global one");
    assert.strictEqual(matchLayers(layers, 'read', 'Gemini CLI', options)?.source, 'user');
    assert.strictEqual(matchLayers([], 'read', 'Gemini CLI', options), undefined);
  });
});
