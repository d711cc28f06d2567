import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { buildHarness, envelopeOf } from '../../../support/fakes/harness.js';
import { makePng } from '../../../support/fakes/images.js';

describe('observers: screen_capture', () => {
  it('screen_capture keeps the full picture on disk and returns a preview of at most 1568 px', async () => {
    const h = buildHarness();
    h.device.png = makePng(2000, 300);
    const result = await h.call('screen_capture');
    const envelope = envelopeOf(result);
    expect(envelope.data).toEqual({ captured: true, width: 2000, height: 300 });
    expect(envelope.evidence?.artifact_id).toMatch(/-screen\.png$/);
    expect(h.store.files.get(envelope.evidence?.artifact_id ?? '')).toEqual(h.device.png);
    const image = result.content.find((c) => c.type === 'image');
    expect(image).toBeDefined();
    const preview = PNG.sync.read(Buffer.from((image as { data: string }).data, 'base64'));
    expect(Math.max(preview.width, preview.height)).toBeLessThanOrEqual(1568);
    expect(Buffer.from((image as { data: string }).data, 'base64').length).toBeLessThan(1_000_000);
  });

  it('screen_capture refuses a blank screen with the graphics remedy', async () => {
    const h = buildHarness();
    h.device.png = makePng(30, 30, true);
    const envelope = await h.envelope('screen_capture');
    expect(envelope.error?.code).toBe('EVIDENCE_WRITE_FAILED');
    expect(envelope.error?.message).toContain('swiftshader');
    expect(h.store.files.size).toBe(0);
  });
});
