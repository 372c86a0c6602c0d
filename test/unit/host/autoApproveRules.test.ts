import * as assert from 'assert';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { matchAutoApprove, pickAllowOption, ruleFor } from '../../../src/host/permissions/autoApproveRules';

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
    assert.match(m?.description ?? '', /"read" is allowed for every agent/);
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
});
