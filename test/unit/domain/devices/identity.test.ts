import { describe, expect, it } from 'vitest';
import { factsFromProps, identityFromProps, serialIdentity } from '../../../../src/domain/devices/identity.js';

const props = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('which device a serial names', () => {
  it('an emulator is its AVD name, from the current property or the older one', () => {
    expect(
      identityFromProps('emulator-5554', props({ 'ro.boot.qemu': '1', 'ro.boot.qemu.avd_name': 'Pixel_7' })),
    ).toEqual({
      key: 'avd:Pixel_7',
      avdName: 'Pixel_7',
      source: 'avd',
    });
    expect(
      identityFromProps('emulator-5554', props({ 'ro.kernel.qemu': ' 1 ', 'ro.kernel.qemu.avd_name': ' Old_AVD ' }))
        .key,
    ).toBe('avd:Old_AVD');
    expect(
      identityFromProps('emulator-5554', props({ 'ro.boot.qemu': ' 1\n', 'ro.boot.qemu.avd_name': 'Pixel_7' })).key,
    ).toBe('avd:Pixel_7');
    expect(
      identityFromProps(
        'emulator-5554',
        props({ 'ro.boot.qemu': '1', 'ro.boot.qemu.avd_name': 'bad name', 'ro.kernel.qemu.avd_name': 'Fallback' }),
      ).key,
    ).toBe('avd:Fallback');
  });

  it('an emulator without an AVD name is its adb serial, never its shared serialno', () => {
    expect(
      identityFromProps('emulator-5554', props({ 'ro.boot.qemu': '1', 'ro.serialno': 'EMULATOR35X6X3X0' })),
    ).toEqual(serialIdentity('emulator-5554'));
    expect(serialIdentity('emulator-5554')).toEqual({ key: 'serial:emulator-5554', avdName: null, source: 'serial' });
  });

  it('qemu must say 1 exactly; else the serialno, then the boot serialno', () => {
    expect(identityFromProps('x', props({ 'ro.boot.qemu': '0', 'ro.serialno': 'R58M1' }))).toEqual({
      key: 'serialno:R58M1',
      avdName: null,
      source: 'serialno',
    });
    expect(identityFromProps('x', props({ 'ro.boot.serialno': 'R58M2' })).key).toBe('serialno:R58M2');
    expect(identityFromProps('x', props({ 'ro.serialno': 'unknown', 'ro.boot.serialno': 'R58M3' })).key).toBe(
      'serialno:R58M3',
    );
  });

  it('a value that is not plain, unknown in any case, empty or too long is no identity', () => {
    for (const value of ['UNKNOWN', 'Unknown', '', '   ', 'a/b', 'a b', 'x'.repeat(129)]) {
      expect(identityFromProps('192.168.1.5:5555', props({ 'ro.serialno': value })).key, value).toBe(
        'serial:192.168.1.5:5555',
      );
    }
    expect(identityFromProps('x', props({ 'ro.serialno': 'a.b_c:d@e+f-1' })).key).toBe('serialno:a.b_c:d@e+f-1');
    expect(identityFromProps('x', props({ 'ro.serialno': 'x'.repeat(128) })).key).toBe(`serialno:${'x'.repeat(128)}`);
  });

  it('facts: the version and model trimmed and cut to 128, null when blank or absent', () => {
    const facts = factsFromProps(
      'emulator-5554',
      props({
        'ro.build.version.release': ' 15 ',
        'ro.product.model': 'm'.repeat(200),
        'ro.boot.qemu': '1',
        'ro.boot.qemu.avd_name': 'A',
      }),
    );
    expect(facts).toEqual({
      identity: { key: 'avd:A', avdName: 'A', source: 'avd' },
      androidVersion: '15',
      model: 'm'.repeat(128),
    });
    expect(factsFromProps('s', props({ 'ro.product.model': '  ' }))).toMatchObject({
      androidVersion: null,
      model: null,
    });
  });
});
