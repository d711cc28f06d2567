import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { OperationResult } from '../../../../src/application/OperationRunner.js';
import { PngImageTools } from '../../../../src/infrastructure/png/PngImageTools.js';
import { DeviceApp, STRIP_STEPS } from '../../../../src/mcp/app/DeviceApp.js';

function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(200);
  return PNG.sync.write(image);
}

const files = new Map<string, Buffer>([
  ['a-1.png', png(108, 240)],
  ['a-2.png', png(108, 240)],
]);
const artifacts = { read: async (id: string) => files.get(id) ?? null, recentIds: () => [...files.keys()] };

function result(
  tool: string,
  data: Record<string, unknown>,
  extra: { evidence?: string; trace?: OperationResult['trace']; error?: string } = {},
): OperationResult {
  return {
    envelope: {
      ok: extra.error === undefined,
      operation_id: '0123456789ab',
      tool,
      data,
      evidence: extra.evidence ? { artifact_id: extra.evidence } : null,
      error: extra.error ? { code: extra.error as 'UI_ELEMENT_NOT_FOUND', message: 'm' } : null,
    },
    ...(extra.trace ? { trace: extra.trace } : {}),
  };
}

const READ = result(
  'ui_get_tree',
  {
    actions: [
      { ref: 'e1', text: 'Apps' },
      { ref: 'e2', id: 'search' },
    ],
  },
  { trace: { bounds: { e1: [0, 10, 108, 20], e2: [0, 40, 108, 20] } } },
);

function app(trace = false): DeviceApp {
  return new DeviceApp({ artifacts, images: new PngImageTools(), traceAvailable: () => trace });
}

describe('the device app state', () => {
  it('draws a read’s refs on the screenshot it describes, and never on a later one', async () => {
    const state = app(true);
    expect(await state.data()).toBeNull();
    state.record('device_back', {}, result('device_back', {}, { evidence: 'a-2.png' }));
    state.record('ui_get_tree', {}, READ);
    const read = (await state.data())!;
    expect(read.screen).toMatchObject({ step: 1, width: 108, height: 240 });
    expect(read.refs_step).toBe(2);
    expect(read.refs).toEqual([
      { ref: 'e1', bounds: [0, 10, 108, 20], entry: { ref: 'e1', text: 'Apps' } },
      { ref: 'e2', bounds: [0, 40, 108, 20], entry: { ref: 'e2', id: 'search' } },
    ]);
    expect(read).toMatchObject({ before: null, acted: null, trace: true });

    const tap = { trace: { acted: [0, 10, 108, 20] as const, element: { label: 'Apps' } as never } };
    state.record('ui_tap', { selector: { ref: 'e1' } }, result('ui_tap', {}, { evidence: 'a-1.png', ...tap }));
    const tapped = (await state.data())!;
    expect(tapped.screen?.step).toBe(3);
    // The element's place is on the screen it was pressed on, not on the one after.
    expect(tapped.before?.step).toBe(1);
    expect(tapped.acted).toEqual([0, 10, 108, 20]);
    expect(tapped.acted_label).toBe('Apps');
    expect(tapped.refs).toEqual([]);
    expect(tapped.refs_step).toBeNull();
  });

  it('draws no outline when there was no screen before the action', async () => {
    const state = app();
    state.record(
      'ui_tap',
      { selector: { text: 'Apps' } },
      result('ui_tap', {}, { evidence: 'a-1.png', trace: { acted: [0, 10, 108, 20] } }),
    );
    expect(await state.data()).toMatchObject({ before: null, acted: null, screen: { step: 1 } });
  });

  it('keeps the last steps for the strip, with thumbnails of the ones that took a screenshot', async () => {
    const state = app();
    for (let i = 0; i < STRIP_STEPS + 2; i += 1) state.record('ui_get_tree', {}, READ);
    state.record('ui_scroll', { direction: 'down' }, result('ui_scroll', {}, { evidence: 'a-2.png' }));
    state.record('ui_tap', { selector: { ref: 'e9' } }, result('ui_tap', {}, { error: 'UI_ELEMENT_NOT_FOUND' }));
    state.record('emulator_get_status', {}, result('emulator_get_status', {}));
    const data = (await state.data())!;
    expect(data.steps.map((s) => s.step)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(data.step).toMatchObject({
      step: 10,
      tool: 'ui_tap',
      target: 'e9',
      ok: false,
      code: 'UI_ELEMENT_NOT_FOUND',
    });
    const scroll = data.steps.find((s) => s.tool === 'ui_scroll')!;
    expect(scroll.target).toBe('down');
    expect(Buffer.from(scroll.thumb!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(data.steps[0]!.thumb).toBeNull();
  });

  it('never keeps the text a call types, only its length', async () => {
    const state = app();
    state.record('ui_type_text', { selector: { ref: 'e1' }, text: 'hunter2' }, result('ui_type_text', {}));
    const data = (await state.data())!;
    expect(JSON.stringify(data)).not.toContain('hunter2');
    expect(data.step.target).toBe('e1 · 7 characters');
  });
});
