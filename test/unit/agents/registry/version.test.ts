import * as assert from 'assert';
import { compareVersions, isNewer } from '../../../../src/agents/registry/version';

describe('registry versions', () => {
  it('orders semver-ish versions', () => {
    const ordered = ['0.9.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0', 'v1.0.1', '1.2', '1.10.0', '2.0.0.1'];
    for (let i = 0; i < ordered.length - 1; i++) {
      assert.strictEqual(compareVersions(ordered[i], ordered[i + 1]), -1, `${ordered[i]} < ${ordered[i + 1]}`);
      assert.strictEqual(compareVersions(ordered[i + 1], ordered[i]), 1, `${ordered[i + 1]} > ${ordered[i]}`);
    }
    assert.strictEqual(compareVersions('1.2.0', 'v1.2'), 0);
    assert.strictEqual(compareVersions('1.2.3+build.1', '1.2.3+build.2'), 0);
  });

  it('an update is only a newer version, never a downgrade', () => {
    assert.ok(isNewer('1.1.0', '1.0.9'));
    assert.ok(!isNewer('1.0.0', '1.0.0'));
    assert.ok(!isNewer('0.9.0', '1.0.0'));
  });
});
