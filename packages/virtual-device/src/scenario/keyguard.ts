/**
 * System UI's lock screen, as the accessibility tree shows it while the keyguard is up
 * (a PIN keyguard: the clock, the notification panel, the lock icon). It belongs to
 * `com.android.systemui`, not to any app, and it is drawn over whatever activity is behind it.
 * Every scenario gets it (VirtualDevice adds it), so the lock trait works with scenario files too.
 */
import { C, node } from './builders.js';
import type { ScenarioSpec, ScreenSpec } from './model.js';

export const KEYGUARD_SCREEN_ID = 'systemui_keyguard';
const SYSTEMUI = 'com.android.systemui';

export function keyguardScreen(): ScreenSpec {
  return {
    id: KEYGUARD_SCREEN_ID,
    package: SYSTEMUI,
    activity: '.keyguard.KeyguardViewMediator',
    static: true,
    onBack: [],
    root: node(C.frame, [0, 0, 1080, 2400], { resourceId: `${SYSTEMUI}:id/notification_panel` }, [
      node(C.frame, [0, 0, 1080, 2400], { resourceId: `${SYSTEMUI}:id/keyguard_root_view` }, [
        node(C.text, [300, 380, 780, 620], { resourceId: `${SYSTEMUI}:id/lockscreen_clock_view`, text: '10:42' }),
        node(C.text, [240, 660, 840, 730], { resourceId: `${SYSTEMUI}:id/date_view`, text: 'Tue, Dec 1' }),
        node(C.imageButton, [477, 2050, 603, 2176], {
          resourceId: `${SYSTEMUI}:id/lock_icon_view`,
          contentDesc: 'Device locked',
        }),
      ]),
    ]),
  };
}

/** The scenario with the lock screen added (a scenario that defines its own keeps it). */
export function withKeyguard(scenario: ScenarioSpec): ScenarioSpec {
  if (scenario.screens.some((s) => s.id === KEYGUARD_SCREEN_ID)) return scenario;
  return { ...scenario, screens: [...scenario.screens, keyguardScreen()] };
}
