/**
 * The flow loader checks the whole file before anything starts: its shape, every step's tool and
 * every step's arguments through the tool's own checks, each problem with its step number, all at
 * once, word for word as a person reads them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CORE_ONLY, FlowFileError, parseFlowFile, validateFlow } from '../../../src/flow/flowFile.js';
import { isStepTool, stepToolNames, stepToolProblem, type FlowCheckOptions } from '../../../src/flow/flowSteps.js';
import { callProblems, toolsForChecking } from '../../../src/mcp/checkCall.js';
import { TOOLSET_NAMES } from '../../../src/domain/toolsets.js';

const docsFlows = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/flows');

const ALL_ON: FlowCheckOptions = { toolsets: TOOLSET_NAMES, enable: () => 'never asked' };

async function problems(flow: unknown, options: FlowCheckOptions = CORE_ONLY): Promise<readonly string[]> {
  try {
    await validateFlow(flow, 'f.json', options);
  } catch (error) {
    if (error instanceof FlowFileError) return error.problems;
    throw error;
  }
  throw new Error('expected a FlowFileError');
}

const flowOf = (...steps: unknown[]): Record<string, unknown> => ({ package_name: 'com.android.settings', steps });

describe('the documented flows', () => {
  const files = readdirSync(docsFlows).filter((name) => name.endsWith('.json'));

  it('are all valid flow files, with the default toolsets', async () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const flow = await parseFlowFile(readFileSync(path.join(docsFlows, file), 'utf8'), file);
      expect(flow.steps.length, file).toBeGreaterThan(0);
    }
  });
});

describe('parseFlowFile', () => {
  it('accepts a minimal flow and defaults missing arguments', async () => {
    expect(await parseFlowFile('{"package_name":"com.x","steps":[{"tool":"device_back"}]}')).toEqual({
      package_name: 'com.x',
      steps: [{ tool: 'device_back', arguments: {} }],
    });
  });

  it('refuses text that is not JSON', async () => {
    await expect(parseFlowFile('{', 'f.json')).rejects.toThrow(/^f\.json is not valid JSON: /);
  });

  it('says "f.json is not a valid flow:" then one problem a line', async () => {
    await expect(
      parseFlowFile(JSON.stringify(flowOf({ tool: 'ui_scroll', arguments: { direction: 'Down' } })), 'f.json'),
    ).rejects.toThrow(
      "f.json is not a valid flow:\n  - step 1 (ui_scroll): direction 'Down' is not one of up, down, left, right",
    );
  });
});

describe('validateFlow: the flow itself', () => {
  it('names a missing package_name and empty steps, with what to write', async () => {
    expect(await problems({ steps: [] })).toEqual([
      'package_name is missing: name the application id to open, e.g. com.example.app',
      'steps is empty: list the steps, e.g. [{"tool": "ui_tap", "arguments": {"selector": {"text": "Login"}}}]',
    ]);
  });

  it('checks package_name as app_open checks it, and names an unknown key', async () => {
    expect(await problems({ package_name: 'com x', stpes: [], steps: [{ tool: 'device_back' }] })).toEqual([
      "the flow has the unknown key 'stpes' (a flow takes only description, package_name, inputs, steps)",
      "package_name: Invalid package name 'com x'. A package name is dot-separated segments of letters, digits and underscores, each starting with a letter, at most 255 characters (e.g. com.android.settings; no activity, path, space or flag). app_list_installed lists the installed packages.",
    ]);
  });

  it('refuses what is not an object', async () => {
    expect(await problems([])).toEqual(['the flow must be an object, not an array']);
  });
});

describe('validateFlow: each step, by its number', () => {
  it('a direction in the wrong case, a missing argument, a bad flag', async () => {
    expect(
      await problems(
        flowOf(
          { tool: 'ui_tap', arguments: { selector: { text: 'Apps' } } },
          { tool: 'ui_scroll', arguments: { direction: 'Down' } },
          { tool: 'app_open' },
          { tool: 'ui_type_text', arguments: { selector: { input_hint: 'Search' } } },
          { tool: 'ui_tap', arguments: { selector: { text: 'A' }, long_press: 'yes' } },
        ),
      ),
    ).toEqual([
      "step 2 (ui_scroll): direction 'Down' is not one of up, down, left, right",
      'step 3 (app_open): package_name is missing',
      'step 4 (ui_type_text): text is missing',
      "step 5 (ui_tap): long_press must be true or false, not 'yes'",
    ]);
  });

  it('coordinates and misspelt argument names, each named, as runTool names them', async () => {
    expect(
      await problems(
        flowOf(
          { tool: 'ui_tap', arguments: { x: 10, y: 20 } },
          { tool: 'ui_tap', arguments: { selector: { text: 'A' }, long_pres: true } },
        ),
      ),
    ).toEqual([
      "step 1 (ui_tap): Invalid argument 'x', a position: the harness never takes coordinates (no x, y, bounds, point or offset under any name), so name the element with a selector or a ref from ui_get_tree; ui_tap takes only selector, long_press, observe.",
      "step 1 (ui_tap): Invalid argument 'y', a position: the harness never takes coordinates (no x, y, bounds, point or offset under any name), so name the element with a selector or a ref from ui_get_tree; ui_tap takes only selector, long_press, observe.",
      'step 1 (ui_tap): selector is missing',
      "step 2 (ui_tap): Invalid argument 'long_pres': ui_tap takes only selector, long_press, observe.",
    ]);
  });

  it('a selector and a text the tool’s own validation refuses', async () => {
    expect(
      await problems(
        flowOf(
          { tool: 'ui_tap', arguments: { selector: { txt: 'A' } } },
          { tool: 'ui_type_text', arguments: { selector: { input_hint: 'A' }, text: 'a\nb' } },
        ),
      ),
    ).toEqual([
      'step 1 (ui_tap): Invalid selector: selector has the unknown key \'txt\'. A selector is an object with exactly one of id, resource_id, text, content_desc, text_contains, input_hint, text_starts_with, content_desc_contains, class_name, resource_id_matches, plus an optional "within" that is itself exactly one of those keys (no nested within), e.g. {"text": "Save"} or {"text": "Save", "within": {"content_desc": "Work profile"}}; by hand it may add checked, selected, enabled, focused (true or false) and "instance" (0-based). Send back a selector that ui_get_tree offered.',
      'step 2 (ui_type_text): Invalid text: control character U+000A at position 2. Text must be a string of 1 to 512 characters without control characters (no newline, tab, NUL or bidi override; to submit, tap the button instead of sending a newline).',
    ]);
  });

  it('session_id and refs belong to one run: both refused', async () => {
    expect(
      await problems(flowOf({ tool: 'ui_tap', arguments: { selector: { ref: 'e5' }, session_id: 'abc' } })),
    ).toEqual([
      'step 1 (ui_tap): session_id must not be given: the runner opens the UI session and puts its id in every step',
      'step 1 (ui_tap): selector.ref must not be given: a ref names one element of one screen of one server run; copy the selector keys ui_get_tree offers beside it',
    ]);
  });

  it('the step’s own shape: unknown keys, not an object, arguments not an object', async () => {
    expect(
      await problems(flowOf({ tool: 'ui_tap', args: {} }, 'abc', { tool: 'device_back', arguments: [] }, {})),
    ).toEqual([
      "step 1 (ui_tap): the step has the unknown key 'args' (a step takes only tool, arguments, note, expect, element)",
      'step 1 (ui_tap): selector is missing',
      "step 2: the step must be an object, not 'abc'",
      'step 3 (device_back): arguments must be an object, not an array',
      'step 4: tool is missing',
    ]);
  });
});

describe('validateFlow: which tools are steps', () => {
  it('an unknown tool lists the steps there are', async () => {
    expect(await problems(flowOf({ tool: 'ui_tapp' }))).toEqual([
      "step 1 (ui_tapp): there is no tool 'ui_tapp'; a step is one of app_open, ui_tap, ui_type_text, ui_scroll, device_back, settings_open_apps (with more toolsets on, also app_install, app_stop, app_clear_data, app_open_link, device_key, notifications_open, device_rotate, ui_wait)",
    ]);
  });

  it('a tool of a toolset that is off names the toolset and how to turn it on', async () => {
    const steps = flowOf(
      { tool: 'ui_wait', arguments: { selector: { text: 'A' }, until: 'visible' } },
      { tool: 'device_key', arguments: { key: 'home' } },
    );
    expect(await problems(steps)).toEqual([
      "step 1 (ui_wait): ui_wait belongs to the toolset 'wait', which is off: run the flow with --toolsets wait (or ANDROID_MCP_TOOLSETS=wait)",
      "step 2 (device_key): device_key belongs to the toolset 'device', which is off: run the flow with --toolsets device (or ANDROID_MCP_TOOLSETS=device)",
    ]);
    const server: FlowCheckOptions = {
      toolsets: ['core', 'wait'],
      enable: (toolset) => `start the server with --toolsets ${toolset}`,
    };
    expect(await problems(steps, server)).toEqual([
      "step 2 (device_key): device_key belongs to the toolset 'device', which is off: start the server with --toolsets device",
    ]);
    await expect(validateFlow(steps, 'f', ALL_ON)).resolves.toMatchObject({
      steps: [{ tool: 'ui_wait' }, { tool: 'device_key' }],
    });
  });

  it('session tools and observers are refused with why', async () => {
    expect(
      await problems(
        flowOf(
          { tool: 'ui_session_open' },
          { tool: 'ui_get_tree' },
          { tool: 'screen_capture' },
          { tool: 'device_list' },
        ),
        ALL_ON,
      ),
    ).toEqual([
      'step 1 (ui_session_open): ui_session_open is not a step: the runner opens the UI session before the steps and closes it after them',
      'step 2 (ui_get_tree): ui_get_tree is not a step: it only reads, and the runner already reads the screen before and after the steps (every action leaves its screenshot); to wait for an element, or check that it is there, use ui_wait',
      'step 3 (screen_capture): screen_capture is not a step: it only reads, and the runner already reads the screen before and after the steps (every action leaves its screenshot); to wait for an element, or check that it is there, use ui_wait',
      'step 4 (device_list): device_list is not a step: it only reads, and the runner already reads the screen before and after the steps (every action leaves its screenshot); to wait for an element, or check that it is there, use ui_wait',
    ]);
  });

  it('an acting tool without session_id could not run inside the flow: refused', () => {
    const tapTool = toolsForChecking().get('device_back')!;
    const outside = { ...tapTool, name: 'outside_flow', inputSchema: z.object({}) };
    expect(isStepTool(outside)).toBe(false);
    expect(stepToolProblem('outside_flow', outside, ALL_ON)).toBe(
      'outside_flow is not a step: it takes no session_id, so it cannot run inside the UI session that holds the device',
    );
  });

  it('the step tools: every acting tool that runs in a flow, and ui_wait', () => {
    expect(stepToolNames(['core'])).toEqual([
      'app_open',
      'ui_tap',
      'ui_type_text',
      'ui_scroll',
      'device_back',
      'settings_open_apps',
    ]);
    expect(stepToolNames(TOOLSET_NAMES)).toEqual([
      ...stepToolNames(['core']),
      'app_install',
      'app_stop',
      'app_clear_data',
      'app_open_link',
      'device_key',
      'notifications_open',
      'device_rotate',
      'ui_wait',
    ]);
  });

  it('every step tool accepts valid arguments through its own validation (the check reaches no service)', async () => {
    const valid: Record<string, Record<string, unknown>> = {
      app_open: { package_name: 'com.android.settings' },
      ui_tap: { selector: { text: 'Apps', within: { id: 'list' } }, long_press: true },
      ui_type_text: { selector: { input_hint: 'Search' }, text: 'wifi' },
      ui_scroll: { direction: 'down', selector: { id: 'carousel' } },
      device_back: {},
      settings_open_apps: {},
      device_key: { key: 'enter' },
      app_install: { apk: 'builds/app-debug.apk' },
      app_stop: { package_name: 'com.android.settings' },
      app_clear_data: { package_name: 'com.example.app' },
      ui_wait: { selector: { text: 'Apps' }, until: 'gone', timeout_s: 5 },
      app_open_link: { url: 'myapp://orders/42?from=flow', package_name: 'com.example.app' },
      notifications_open: {},
      device_rotate: { orientation: 'landscape' },
    };
    const tools = [...toolsForChecking().values()].filter(isStepTool);
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(valid).sort());
    for (const tool of tools) {
      expect(await callProblems(tool, valid[tool.name]!, ['session_id']), tool.name).toEqual([]);
      // The tool's own parse, the one a call runs before any service: it accepts them too.
      expect(() => tool.check(valid[tool.name]!), tool.name).not.toThrow();
    }
  });

  it('a flow of every step tool passes with every toolset on', async () => {
    const flow = flowOf(
      { tool: 'ui_wait', arguments: { selector: { text: 'Apps' }, until: 'visible' } },
      { tool: 'app_open', arguments: { package_name: 'com.android.settings' } },
      { tool: 'device_key', arguments: { key: 'back' } },
    );
    await expect(validateFlow(flow, 'f', ALL_ON)).resolves.toEqual(flow);
  });
});
