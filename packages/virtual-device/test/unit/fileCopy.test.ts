import { describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../src/device/VirtualDevice.js';
import { sh } from './helpers.js';

// The suite's timing is fast (vitest.config.ts says why); these check what the commands do.
const newDevice = (): VirtualDevice => VirtualDevice.withDefaultScenario({ timing: 'fast' });

describe('toybox cp and mv, and run-as on a user build', () => {
  it('moves a pushed helper into place: the source is gone, the target has its bytes', async () => {
    const d = newDevice();
    await sh(d, 'echo helper > /data/local/tmp/agent.tmp');
    expect((await sh(d, 'mv /data/local/tmp/agent.tmp /data/local/tmp/agent.dex')).code).toBe(0);
    expect((await sh(d, 'cat /data/local/tmp/agent.dex')).stdout).toBe('helper\n');
    expect((await sh(d, 'ls /data/local/tmp/agent.tmp')).code).toBe(1);
  });

  it('copies into a directory by the source name and keeps the source', async () => {
    const d = newDevice();
    await sh(d, 'echo a > /data/local/tmp/a.txt');
    await sh(d, 'mkdir /data/local/tmp/dir');
    expect((await sh(d, 'cp /data/local/tmp/a.txt /data/local/tmp/dir')).code).toBe(0);
    expect((await sh(d, 'cat /data/local/tmp/dir/a.txt')).stdout).toBe('a\n');
    expect((await sh(d, 'cat /data/local/tmp/a.txt')).stdout).toBe('a\n');
  });

  it('says what toybox says for a missing source or a missing argument', async () => {
    const d = newDevice();
    const missing = await sh(d, 'mv /data/local/tmp/none /data/local/tmp/x');
    expect(missing).toMatchObject({ code: 1, stderr: "mv: bad '/data/local/tmp/none': No such file or directory\n" });
    expect(await sh(d, 'cp /data/local/tmp/x')).toMatchObject({ code: 1, stderr: 'cp: Need 2 arguments\n' });
  });

  it('refuses run-as: an installed package is not debuggable, another is unknown', async () => {
    const d = newDevice();
    expect(await sh(d, 'run-as com.android.settings id')).toMatchObject({
      code: 1,
      stderr: 'run-as: package not debuggable: com.android.settings\n',
    });
    expect((await sh(d, 'run-as com.example.none id')).stderr).toBe('run-as: unknown package: com.example.none\n');
  });
});
