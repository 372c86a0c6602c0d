import * as assert from 'assert';
import { describePlan, planInstall, registryPlatform } from '../../../../src/agents/registry/distribution';
import type { RegistryAgent } from '../../../../src/agents/registry/registrySchema';

function agent(distribution: RegistryAgent['distribution']): RegistryAgent {
  return { id: 'a', name: 'Agent A', version: '1.0.0', distribution };
}
const target = { archive: 'https://x/a.tar.gz', cmd: 'bin/a' };

describe('registry distribution choice', () => {
  it('maps Node platforms to the registry names', () => {
    assert.strictEqual(registryPlatform('linux', 'x64'), 'linux-x86_64');
    assert.strictEqual(registryPlatform('linux', 'arm64'), 'linux-aarch64');
    assert.strictEqual(registryPlatform('darwin', 'arm64'), 'darwin-aarch64');
    assert.strictEqual(registryPlatform('darwin', 'x64'), 'darwin-x86_64');
    assert.strictEqual(registryPlatform('win32', 'x64'), 'windows-x86_64');
    assert.strictEqual(registryPlatform('win32', 'arm64'), 'windows-aarch64');
    assert.strictEqual(registryPlatform('freebsd', 'x64'), undefined);
    assert.strictEqual(registryPlatform('linux', 'ia32'), undefined);
  });

  it('prefers a binary for this machine, then npx, then uvx', () => {
    const all = agent({ binary: { 'linux-x86_64': target }, npx: { package: 'p' }, uvx: { package: 'u' } });
    assert.strictEqual(planInstall(all, 'linux-x86_64').kind, 'binary');
    assert.strictEqual(planInstall(all, 'darwin-aarch64').kind, 'npx');
    assert.strictEqual(planInstall(agent({ uvx: { package: 'u' } }), 'linux-x86_64').kind, 'uvx');
    assert.strictEqual(describePlan(planInstall(all, 'darwin-aarch64')), 'npx p');
  });

  it('says which platforms an agent supports when this one is not among them', () => {
    const plan = planInstall(agent({ binary: { 'darwin-aarch64': target, 'windows-x86_64': target } }), 'linux-x86_64');
    assert.ok(plan.kind === 'unsupported');
    assert.match(plan.reason, /Agent A has no build for this machine \(linux-x86_64\); it supports darwin-aarch64, windows-x86_64/);
    const other = planInstall(agent({ docker: { image: 'x' } } as RegistryAgent['distribution']), 'linux-x86_64');
    assert.ok(other.kind === 'unsupported' && /only as docker/.test(other.reason));
  });
});
