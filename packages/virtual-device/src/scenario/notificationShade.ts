/**
 * System UI's notification shade, pulled down (UiDevice.openNotification, `mobile:
 * openNotifications`): the quick settings row and the notification list, drawn by
 * `com.android.systemui` in its `NotificationShade` window over the activity behind, which stays
 * the resumed one. Back closes it. Ids and structure as a Pixel on Android 14 shows them
 * (notification_stack_scroller, expandableNotificationRow with android:id/title and text, the
 * dismiss_text "Clear all" button). Every scenario gets an empty one; a scenario may define its
 * own screen with this id to show notifications.
 */
import { C, node } from './builders.js';
import type { Action, NodeSpec, ScenarioSpec, ScreenSpec } from './model.js';

export const NOTIFICATION_SHADE_SCREEN_ID = 'notification_shade';
const SYSTEMUI = 'com.android.systemui';

export interface ShadeNotification {
  readonly app: string;
  readonly title: string;
  readonly text: string;
  /** What a tap on it does after the shade closes (its PendingIntent). */
  readonly onClick: readonly Action[];
}

function tile(label: string, left: number, on: boolean): NodeSpec {
  return node(C.switch, [left, 230, left + 240, 350], {
    contentDesc: label,
    checkable: true,
    checked: on,
    clickable: true,
    focusable: true,
    package: SYSTEMUI,
    onClick: [{ type: 'toggle' }],
  });
}

function row(n: ShadeNotification, index: number): NodeSpec {
  const top = 560 + index * 260;
  return node(
    C.frame,
    [32, top, 1048, top + 240],
    {
      resourceId: `${SYSTEMUI}:id/expandableNotificationRow`,
      clickable: true,
      focusable: true,
      package: SYSTEMUI,
      onClick: [{ type: 'back' }, ...n.onClick],
    },
    [
      node(C.text, [190, top + 30, 600, top + 80], {
        resourceId: 'android:id/app_name_text',
        text: n.app,
        package: SYSTEMUI,
      }),
      node(C.text, [190, top + 90, 1000, top + 150], {
        resourceId: 'android:id/title',
        text: n.title,
        package: SYSTEMUI,
      }),
      node(C.text, [190, top + 160, 1000, top + 215], {
        resourceId: 'android:id/text',
        text: n.text,
        package: SYSTEMUI,
      }),
    ],
  );
}

export function notificationShadeScreen(notifications: readonly ShadeNotification[]): ScreenSpec {
  const bottom = 560 + notifications.length * 260;
  const content: NodeSpec[] =
    notifications.length === 0
      ? [
          node(C.text, [0, 560, 1080, 700], {
            resourceId: `${SYSTEMUI}:id/no_notifications`,
            text: 'No notifications',
            package: SYSTEMUI,
          }),
        ]
      : [
          node(
            C.scroll,
            [0, 520, 1080, Math.min(bottom + 40, 2000)],
            { resourceId: `${SYSTEMUI}:id/notification_stack_scroller`, package: SYSTEMUI },
            notifications.map(row),
          ),
          node(C.button, [780, bottom + 60, 1040, bottom + 180], {
            resourceId: `${SYSTEMUI}:id/dismiss_text`,
            text: 'Clear all',
            clickable: true,
            focusable: true,
            package: SYSTEMUI,
            onClick: [{ type: 'back' }],
          }),
        ];
  return {
    id: NOTIFICATION_SHADE_SCREEN_ID,
    package: SYSTEMUI,
    activity: '.shade.NotificationShadeWindowView',
    systemWindow: 'NotificationShade',
    root: node(C.frame, [0, 0, 1080, 2400], { resourceId: `${SYSTEMUI}:id/notification_panel`, package: SYSTEMUI }, [
      node(C.text, [48, 80, 300, 160], { resourceId: `${SYSTEMUI}:id/clock`, text: '10:42', package: SYSTEMUI }),
      node(C.view, [0, 200, 1080, 380], { resourceId: `${SYSTEMUI}:id/quick_qs_panel`, package: SYSTEMUI }, [
        tile('Internet', 30, true),
        tile('Bluetooth', 290, false),
        tile('Do Not Disturb', 550, false),
        tile('Flashlight', 810, false),
      ]),
      ...content,
    ]),
  };
}

/** The scenario with an empty shade added (a scenario that defines its own keeps it). */
export function withNotificationShade(scenario: ScenarioSpec): ScenarioSpec {
  if (scenario.screens.some((s) => s.id === NOTIFICATION_SHADE_SCREEN_ID)) return scenario;
  return { ...scenario, screens: [...scenario.screens, notificationShadeScreen([])] };
}
