/**
 * The default scenario plus one form screen made for the quirks suites: a focused field (the IME
 * opens with the screen), a `Send` button under the keyboard, and a 130 px `Attach` icon above it,
 * large enough at 420 dpi (minimum 126 px) and too small at 480 dpi (minimum 144 px).
 */
import { detectHelperVersions } from '../../packages/virtual-device/src/device/helperVersions.js';
import { defaultScenario } from '../../packages/virtual-device/src/scenario/defaultScenario.js';
import type { ScenarioSpec } from '../../packages/virtual-device/src/scenario/model.js';

export const QUIRKS_PACKAGE = 'com.example.quirks';
export const QUIRKS_FORM_SCREEN = 'quirks_form';

export function quirksScenario(): ScenarioSpec {
  const base = defaultScenario(detectHelperVersions());
  return {
    ...base,
    packages: [
      ...base.packages,
      { name: QUIRKS_PACKAGE, thirdParty: true, launcher: { activity: '.FormActivity', screen: QUIRKS_FORM_SCREEN } },
    ],
    screens: [
      ...base.screens,
      {
        id: QUIRKS_FORM_SCREEN,
        package: QUIRKS_PACKAGE,
        activity: '.FormActivity',
        focusOnOpen: 'message',
        root: {
          class: 'android.widget.FrameLayout',
          bounds: [0, 0, 1080, 2400],
          children: [
            { class: 'android.widget.TextView', text: 'New message', bounds: [40, 180, 1040, 300] },
            {
              key: 'attach',
              class: 'android.widget.ImageButton',
              contentDesc: 'Attach',
              clickable: true,
              bounds: [40, 400, 170, 530],
            },
            {
              key: 'message',
              class: 'android.widget.EditText',
              hint: 'Message',
              clickable: true,
              focusable: true,
              bounds: [200, 400, 1040, 530],
            },
            {
              key: 'send',
              class: 'android.widget.Button',
              text: 'Send',
              clickable: true,
              bounds: [40, 2000, 1040, 2150],
            },
          ],
        },
      },
    ],
  };
}
