/**
 * The default scenario: a Pixel-like launcher, Settings on which every row of the acceptance
 * oracle (test/e2e/oracle.test.ts) can be checked, a Flutter-style notes app and a few placeholder apps.
 * docs/internals/virtual-device.md describes the screens and the selectors each oracle row uses.
 */
import { ARCADE_PACKAGE, ARCADE_SCREENS } from './arcadeScreens.js';
import { NEWS_PACKAGE, NEWS_SCREENS } from './newsScreens.js';
import { notificationShadeScreen } from './notificationShade.js';
import { BACK, C, CONTENT_BOTTOM, appWindow, list, node, row, stackRows, toolbar } from './builders.js';
import type { RowOptions } from './builders.js';
import type { Action, NodeSpec, PackageSpec, ScenarioSpec, ScreenSpec } from './model.js';

const SETTINGS = 'com.android.settings';
const SEARCH = 'com.google.android.settings.intelligence';
const LAUNCHER = 'com.google.android.apps.nexuslauncher';
const NOTES = 'com.example.notes';
const CALENDAR = 'com.google.android.calendar';

const goto = (screen: string, params?: Record<string, string>): Action[] => [
  params ? { type: 'goto', screen, params } : { type: 'goto', screen },
];
const generic = (title: string): Action[] => goto('settings_page', { title });

function launcherScreen(): ScreenSpec {
  const icon = (label: string, pkg: string, column: number, top: number): NodeSpec =>
    node(C.text, [column * 270, top, column * 270 + 270, top + 260], {
      text: label,
      contentDesc: label,
      clickable: true,
      focusable: true,
      longClickable: true,
      onClick: [{ type: 'launch', package: pkg }],
    });
  return {
    id: 'launcher',
    package: LAUNCHER,
    activity: '.NexusLauncherActivity',
    onBack: [],
    root: node(C.frame, [0, 0, 1080, 2400], {}, [
      node(C.frame, [0, 0, 1080, 2400], { resourceId: `${LAUNCHER}:id/launcher` }, [
        node(C.view, [63, 180, 1017, 420], {
          resourceId: `${LAUNCHER}:id/smartspace_card_pager`,
          contentDesc: 'Today',
        }),
        node(C.viewGroup, [0, 1560, 1080, 1880], { resourceId: `${LAUNCHER}:id/workspace` }, [
          icon('Settings', SETTINGS, 0, 1590),
          icon('Notes', NOTES, 1, 1590),
          icon('Calendar', 'com.google.android.calendar', 2, 1590),
          icon('Clock', 'com.google.android.deskclock', 3, 1590),
        ]),
        node(C.viewGroup, [0, 1950, 1080, 2230], { resourceId: `${LAUNCHER}:id/hotseat` }, [
          icon('Chrome', 'com.android.chrome', 0, 1960),
        ]),
      ]),
    ]),
  };
}

/**
 * Overview (Recents, KEYCODE_APP_SWITCH): on a Pixel it is the launcher's own Quickstep state,
 * so the launcher package keeps focus (docs/internals/device-quirks.md). The task cards are not modelled;
 * "Clear all" and Back both lead Home.
 */
function recentsScreen(): ScreenSpec {
  return {
    id: 'recents',
    package: LAUNCHER,
    activity: '.NexusLauncherActivity',
    onBack: [{ type: 'home' }],
    root: node(C.frame, [0, 0, 1080, 2400], {}, [
      node(C.frame, [0, 0, 1080, 2400], { resourceId: `${LAUNCHER}:id/overview_panel`, contentDesc: 'Recent apps' }, [
        node(C.button, [390, 1980, 690, 2100], {
          text: 'Clear all',
          resourceId: `${LAUNCHER}:id/clear_all`,
          clickable: true,
          focusable: true,
          onClick: [{ type: 'home' }],
        }),
      ]),
    ]),
  };
}

const HOME_ROWS: readonly RowOptions[] = [
  { title: 'Network & internet', summary: 'Mobile, Wi-Fi, hotspot', onClick: goto('settings_network') },
  { title: 'Connected devices', summary: 'Bluetooth, pairing', onClick: generic('Connected devices') },
  { title: 'Apps', summary: 'Assistant, recent apps, default apps', onClick: goto('settings_apps') },
  { title: 'Notifications', summary: 'Notification history, conversations', onClick: generic('Notifications') },
  { title: 'Battery', summary: '100%', onClick: generic('Battery') },
  { title: 'Storage', summary: '34% used - 42.19 GB free', onClick: generic('Storage') },
  { title: 'Sound & vibration', summary: 'Volume, haptics, Do Not Disturb', onClick: generic('Sound & vibration') },
  { title: 'Display', summary: 'Dark theme, font size, brightness', onClick: generic('Display') },
  { title: 'Wallpaper & style', summary: 'Colors, themed icons, app grid', onClick: generic('Wallpaper & style') },
  { title: 'Accessibility', summary: 'Display, interaction, audio', onClick: generic('Accessibility') },
  {
    title: 'Security & privacy',
    summary: 'App security, device lock, permissions',
    onClick: generic('Security & privacy'),
  },
  { title: 'Location', summary: 'On - 3 apps have access to location', onClick: generic('Location') },
  {
    title: 'Safety & emergency',
    summary: 'Emergency SOS, medical info, alerts',
    onClick: generic('Safety & emergency'),
  },
  {
    title: 'Passwords & accounts',
    summary: 'Saved passwords, autofill, synced accounts',
    onClick: goto('settings_accounts'),
  },
  {
    title: 'Digital Wellbeing & parental controls',
    summary: 'Screen time, app timers, bedtime schedules',
    onClick: generic('Digital Wellbeing'),
  },
  { title: 'Google', summary: 'Services & preferences', onClick: generic('Google') },
  { title: 'System', summary: 'Languages, gestures, time, backup', onClick: generic('System') },
  { title: 'About phone', summary: 'Pixel 7', onClick: generic('About phone') },
];

function settingsHome(): ScreenSpec {
  return {
    id: 'settings_home',
    package: SETTINGS,
    activity: '.Settings',
    root: appWindow([
      node(C.text, [63, 189, 1017, 336], {
        key: 'title',
        text: 'Settings',
        resourceId: `${SETTINGS}:id/homepage_title`,
      }),
      node(
        C.linear,
        [42, 420, 1038, 567],
        {
          key: 'search_bar',
          resourceId: `${SETTINGS}:id/search_action_bar`,
          clickable: true,
          focusable: true,
          onClick: goto('settings_search'),
        },
        [
          node(C.image, [84, 462, 147, 525]),
          node(C.text, [189, 462, 720, 525], {
            text: 'Search settings',
            resourceId: `${SETTINGS}:id/search_action_bar_title`,
          }),
        ],
      ),
      list(`${SETTINGS}:id/recycler_view`, [0, 609, 1080, CONTENT_BOTTOM], stackRows(609, 231, HOME_ROWS)),
    ]),
  };
}

function settingsPage(): ScreenSpec {
  return {
    id: 'settings_page',
    package: SETTINGS,
    activity: '.SubSettings',
    root: appWindow([
      toolbar(SETTINGS, '{{title}}'),
      node(C.text, [63, 300, 1017, 400], { text: 'Nothing to change here on the virtual device' }),
    ]),
  };
}

function settingsNetwork(): ScreenSpec {
  const rows: RowOptions[] = [
    { title: 'Internet', summary: 'AndroidWifi', onClick: generic('Internet') },
    {
      key: 'wifi_row',
      title: 'Wi-Fi',
      summary: 'Use Wi-Fi',
      switchNode: { key: 'wifi_switch', resourceId: 'android:id/switch_widget', checked: true },
    },
    { title: 'Calls & SMS', summary: 'T-Mobile', onClick: generic('Calls & SMS') },
    { title: 'SIMs', summary: 'T-Mobile', onClick: generic('SIMs') },
    { title: 'Hotspot & tethering', summary: 'Off', onClick: generic('Hotspot & tethering') },
    { title: 'Data Saver', summary: 'Off', onClick: generic('Data Saver') },
    { title: 'VPN', summary: 'None', onClick: generic('VPN') },
    { title: 'Private DNS', summary: 'Automatic', onClick: generic('Private DNS') },
  ];
  return {
    id: 'settings_network',
    package: SETTINGS,
    activity: '.Settings$NetworkDashboardActivity',
    root: appWindow([
      toolbar(SETTINGS, 'Network & internet'),
      list(`${SETTINGS}:id/recycler_view`, [0, 252, 1080, CONTENT_BOTTOM], stackRows(252, 231, rows)),
    ]),
  };
}

function settingsApps(): ScreenSpec {
  const appInfo = (app: string): Action[] => goto('app_info', { app });
  const rows: NodeSpec[] = [
    node(C.text, [63, 280, 1017, 350], { text: 'Recently opened apps' }),
    row(350, 200, { title: 'Notes', summary: '2 min. ago', onClick: appInfo('Notes') }),
    row(550, 200, { title: 'Calendar', summary: '1 hr. ago', onClick: appInfo('Calendar') }),
    row(750, 200, { title: 'Chrome', summary: '3 days ago', onClick: appInfo('Chrome') }),
    row(950, 200, { key: 'all_apps_row', title: 'All apps', summary: 'See all 21 apps', onClick: goto('all_apps') }),
    row(1150, 231, { title: 'Default apps', summary: 'Assistant, browser, phone', onClick: generic('Default apps') }),
    row(1381, 231, { title: 'Screen time', summary: '0 minutes today', onClick: generic('Screen time') }),
    row(1612, 231, { title: 'Unused apps', summary: '0 unused apps', onClick: generic('Unused apps') }),
    row(1843, 231, {
      title: 'Special app access',
      summary: '2 apps can use unrestricted data',
      onClick: generic('Special app access'),
    }),
  ];
  return {
    id: 'settings_apps',
    package: SETTINGS,
    activity: '.Settings$AppDashboardActivity',
    root: appWindow([
      toolbar(SETTINGS, 'Apps'),
      list(`${SETTINGS}:id/recycler_view`, [0, 252, 1080, CONTENT_BOTTOM], rows),
    ]),
  };
}

/** 21 rows, two of them `Clock` with nothing around them that tells them apart. */
const ALL_APPS: readonly (readonly [string, string])[] = [
  ['Android Auto', '48.12 MB'],
  ['Calculator', '5.30 MB'],
  ['Calendar', '61.07 MB'],
  ['Camera', '112 MB'],
  ['Chrome', '301 MB'],
  ['Clock', '21.45 MB'],
  ['Clock', '8.12 MB'],
  ['Contacts', '19.80 MB'],
  ['Drive', '88.40 MB'],
  ['Files by Google', '33.10 MB'],
  ['Gmail', '140 MB'],
  ['Google', '402 MB'],
  ['Maps', '187 MB'],
  ['Messages', '96.25 MB'],
  ['Notes', '12.34 MB'],
  ['Phone', '41.60 MB'],
  ['Photos', '156 MB'],
  ['Play Store', '77.77 MB'],
  ['Settings', '45.90 MB'],
  ['YouTube', '210 MB'],
  ['YouTube Music', '99.10 MB'],
];

function allApps(): ScreenSpec {
  const rows = stackRows(
    400,
    200,
    ALL_APPS.map(([app, size], i) => ({
      key: `app_${i}`,
      title: app,
      summary: size,
      onClick: goto('app_info', { app }),
    })),
  );
  return {
    id: 'all_apps',
    package: SETTINGS,
    activity: '.Settings$ManageApplicationsActivity',
    root: appWindow([
      toolbar(SETTINGS, 'All apps'),
      node(C.text, [63, 273, 600, 360], { text: 'Installed apps', resourceId: `${SETTINGS}:id/filter_spinner` }),
      list(`${SETTINGS}:id/apps_list`, [0, 400, 1080, CONTENT_BOTTOM], rows),
    ]),
  };
}

function appInfo(): ScreenSpec {
  const button = (label: string, left: number): NodeSpec =>
    node(C.button, [left, 760, left + 300, 900], { text: label, clickable: true, focusable: true });
  return {
    id: 'app_info',
    package: SETTINGS,
    activity: '.applications.InstalledAppDetailsTop',
    root: appWindow([
      toolbar(SETTINGS, 'App info'),
      node(C.image, [456, 300, 624, 468], { resourceId: `${SETTINGS}:id/entity_header_icon` }),
      node(C.text, [63, 500, 1017, 600], {
        key: 'app_name',
        text: '{{app}}',
        resourceId: `${SETTINGS}:id/entity_header_title`,
      }),
      button('Open', 63),
      button('Uninstall', 390),
      button('Force stop', 717),
      list(
        `${SETTINGS}:id/recycler_view`,
        [0, 950, 1080, CONTENT_BOTTOM],
        stackRows(950, 200, [
          { title: 'Notifications', summary: 'On', onClick: generic('Notifications') },
          { title: 'Permissions', summary: 'No permissions requested', onClick: generic('Permissions') },
          { title: 'Storage & cache', summary: 'Internal storage', onClick: generic('Storage & cache') },
          { title: 'Mobile data', summary: 'No data used', onClick: generic('Mobile data') },
        ]),
      ),
    ]),
  };
}

/** Two `Save` buttons (and two `Account name` fields) told apart only by their profile container. */
function settingsAccounts(): ScreenSpec {
  const profile = (label: string, short: string, top: number, prefix: string): NodeSpec =>
    node(C.linear, [0, top, 1080, top + 640], { contentDesc: label }, [
      node(C.text, [63, top + 30, 1017, 110 + top], { text: short }),
      node(C.text, [63, top + 120, 1017, top + 190], { text: `${short} autofill service` }),
      node(C.edit, [63, top + 220, 1017, top + 367], {
        key: `${prefix}_name`,
        hint: 'Account name',
        text: '',
        clickable: true,
        focusable: true,
        longClickable: true,
      }),
      node(C.button, [63, top + 420, 400, top + 567], {
        key: `${prefix}_save`,
        text: 'Save',
        clickable: true,
        focusable: true,
        onClick: [
          { type: 'setText', node: `${prefix}_status`, template: `${label} saved: {{@${prefix}_name}}` },
          { type: 'hideKeyboard' },
        ],
      }),
      node(C.text, [430, top + 450, 1017, top + 540], { key: `${prefix}_status`, text: '' }),
    ]);
  return {
    id: 'settings_accounts',
    package: SETTINGS,
    activity: '.Settings$AccountDashboardActivity',
    root: appWindow([
      toolbar(SETTINGS, 'Passwords & accounts'),
      profile('Personal profile', 'Personal', 300, 'personal'),
      profile('Work profile', 'Work', 960, 'work'),
      node(C.button, [63, 1650, 1017, 1797], {
        key: 'add_account',
        text: 'Add account',
        clickable: true,
        focusable: true,
        onClick: goto('settings_add_account'),
      }),
    ]),
  };
}

/**
 * A form as a real device reports it. Every field starts empty and so reports its hint
 * as its text (TextView.getTextForAccessibility): two `Name` fields told apart only by their
 * sections, an `Email` field with an id, and a password field with neither id nor content-desc,
 * whose content is reported as bullets (or as plain text with the `plain` password trait).
 */
function settingsAddAccount(): ScreenSpec {
  const field = (key: string, hint: string, top: number, extra: Partial<NodeSpec> = {}): NodeSpec =>
    node(C.edit, [63, top, 1017, top + 147], {
      key,
      hint,
      text: '',
      clickable: true,
      focusable: true,
      longClickable: true,
      ...extra,
    });
  const section = (label: string, key: string, top: number): NodeSpec =>
    node(C.linear, [0, top, 1080, top + 280], { contentDesc: label }, [
      node(C.text, [63, top + 20, 1017, top + 100], {
        text: label === 'Account holder' ? 'Your name' : 'Someone we can call',
      }),
      field(key, 'Name', top + 110),
    ]);
  return {
    id: 'settings_add_account',
    package: SETTINGS,
    activity: '.accounts.AddAccountSettings',
    root: appWindow([
      toolbar(SETTINGS, 'Add account'),
      section('Account holder', 'holder_name', 290),
      section('Emergency contact', 'contact_name', 590),
      field('account_email', 'Email', 900, { resourceId: `${SETTINGS}:id/account_email` }),
      field('account_password', 'Password', 1080, { password: true }),
      node(C.button, [63, 1300, 1017, 1447], {
        key: 'create_account',
        text: 'Create account',
        clickable: true,
        focusable: true,
        onClick: [
          {
            type: 'setText',
            node: 'account_status',
            template: 'Account created for {{@holder_name}} <{{@account_email}}>',
          },
          { type: 'hideKeyboard' },
        ],
      }),
      node(C.text, [63, 1460, 1017, 1510], { key: 'account_status', text: '' }),
    ]),
  };
}

const SEARCH_RESULTS: readonly (readonly [string, string, Action[]])[] = [
  ['Wi-Fi', 'Network & internet > Internet', goto('settings_network')],
  ['Apps', 'Settings', goto('settings_apps')],
  ['All apps', 'Apps', goto('all_apps')],
  ['Battery', 'Settings', generic('Battery')],
  ['Display', 'Settings', generic('Display')],
  ['Dark theme', 'Display', generic('Dark theme')],
  ['Bluetooth', 'Connected devices', generic('Bluetooth')],
  ['Notifications', 'Settings', generic('Notifications')],
  ['Storage', 'Settings', generic('Storage')],
  ['Wallpaper & style', 'Settings', generic('Wallpaper & style')],
];

/** The search activity: an EditText found only by its hint, focused with the IME open. */
function settingsSearch(): ScreenSpec {
  return {
    id: 'settings_search',
    package: SEARCH,
    activity: '.modules.search.SearchActivity',
    focusOnOpen: 'search_field',
    root: appWindow([
      node(C.linear, [0, 63, 1080, 252], {}, [
        node(C.imageButton, [0, 84, 147, 231], {
          contentDesc: 'Navigate up',
          clickable: true,
          focusable: true,
          onClick: [BACK],
        }),
        node(C.edit, [168, 84, 1038, 231], {
          key: 'search_field',
          text: '',
          hint: 'Search settings',
          clickable: true,
          focusable: true,
          longClickable: true,
        }),
      ]),
      list(
        `${SEARCH}:id/list_results`,
        [0, 252, 1080, CONTENT_BOTTOM],
        stackRows(
          252,
          200,
          SEARCH_RESULTS.map(([title, summary, onClick], i) => ({ key: `result_${i}`, title, summary, onClick })),
        ),
        { filterBy: 'search_field' },
      ),
    ]),
  };
}

function notesTabs(selected: 0 | 1 | 2): NodeSpec {
  const tabs = [
    ['Notas', 'notes_main'],
    ['Historial', 'notes_history'],
    ['Ajustes', 'notes_settings'],
  ] as const;
  return node(
    C.view,
    [0, 2085, 1080, CONTENT_BOTTOM],
    {},
    tabs.map(([label, screen], i) =>
      node(C.view, [i * 360, 2085, i * 360 + 360, CONTENT_BOTTOM], {
        contentDesc: `${label}\nTab ${i + 1} of 3`,
        clickable: true,
        focusable: true,
        selected: i === selected,
        onClick: [{ type: 'goto', screen, replace: true }],
      }),
    ),
  );
}

/** Flutter renders semantics as Views with content-desc and no resource-ids. */
function flutterWindow(children: readonly NodeSpec[]): NodeSpec {
  return appWindow([
    node(C.frame, [0, 63, 1080, CONTENT_BOTTOM], {}, [node(C.view, [0, 63, 1080, CONTENT_BOTTOM], {}, children)]),
  ]);
}

function notesMain(): ScreenSpec {
  return {
    id: 'notes_main',
    package: NOTES,
    activity: '.MainActivity',
    root: flutterWindow([
      node(C.view, [0, 63, 1080, 210], { contentDesc: 'Notes' }),
      // Flutter text fields take set-text only while focused.
      node(C.edit, [42, 273, 1038, 420], {
        key: 'note_title',
        hint: 'Title',
        text: '',
        clickable: true,
        focusable: true,
        longClickable: true,
        setTextNeedsFocus: true,
      }),
      node(C.edit, [42, 462, 1038, 840], {
        key: 'note_body',
        hint: 'Write a note',
        text: '',
        clickable: true,
        focusable: true,
        longClickable: true,
        setTextNeedsFocus: true,
      }),
      node(C.button, [42, 882, 1038, 1029], {
        contentDesc: 'Save note',
        clickable: true,
        focusable: true,
        onClick: [
          { type: 'setText', node: 'saved_note', template: 'Saved: {{@note_title}} - {{@note_body}}' },
          { type: 'hideKeyboard' },
          { type: 'log', priority: 'I', tag: 'flutter', message: 'NoteRepository: note saved' },
        ],
      }),
      node(C.view, [42, 1071, 1038, 1200], { key: 'saved_note', text: '' }),
      notesTabs(0),
    ]),
  };
}

function historyRow(title: string, body: string, top: number): NodeSpec {
  return node(C.view, [42, top, 1038, top + 127], {
    contentDesc: `${title}\n${body}`,
    clickable: true,
    focusable: true,
    longClickable: true,
    onLongClick: [{ type: 'setText', node: 'history_status', template: `Selected: ${title} (Delete, Share)` }],
  });
}

function notesHistory(): ScreenSpec {
  return {
    id: 'notes_history',
    package: NOTES,
    activity: '.MainActivity',
    root: flutterWindow([
      node(C.view, [0, 63, 1080, 210], { contentDesc: 'Historial' }),
      // Rows with a context action on long press (Flutter's InkWell onLongPress): a tap does nothing here.
      historyRow('Shopping list', 'Milk, eggs, bread', 273),
      historyRow('Ideas', 'A virtual device for tests', 420),
      // Long-clickable only (no tap action at all): the summary's `long-press` role.
      node(C.view, [42, 567, 1038, 694], {
        contentDesc: 'Archived\nHold to restore',
        focusable: true,
        longClickable: true,
        onLongClick: [{ type: 'setText', node: 'history_status', template: 'Restored: Archived' }],
      }),
      node(C.view, [42, 736, 1038, 863], { key: 'history_status', text: '' }),
      notesTabs(1),
    ]),
  };
}

function notesSettings(): ScreenSpec {
  return {
    id: 'notes_settings',
    package: NOTES,
    activity: '.MainActivity',
    root: flutterWindow([
      node(C.view, [0, 63, 1080, 210], { contentDesc: 'Ajustes' }),
      node(C.switch, [42, 273, 1038, 400], {
        key: 'dark_mode',
        contentDesc: 'Modo oscuro',
        checkable: true,
        checked: false,
        clickable: true,
        focusable: true,
      }),
      notesTabs(2),
    ]),
  };
}

/**
 * The Notes app's lock screen (`notes://lock`): a PIN login in a window that sets FLAG_SECURE, as
 * login and banking screens do, so Android withholds its pixels from every screenshot while the
 * tree stays readable and the screen takes taps and text (docs/internals/device-quirks.md, "Secure windows").
 */
function notesLock(): ScreenSpec {
  return {
    id: 'notes_lock',
    package: NOTES,
    activity: '.LockActivity',
    secure: true,
    root: flutterWindow([
      node(C.view, [0, 63, 1080, 210], { contentDesc: 'Unlock notes' }),
      node(C.edit, [42, 273, 1038, 420], {
        key: 'pin',
        hint: 'PIN',
        text: '',
        password: true,
        clickable: true,
        focusable: true,
        setTextNeedsFocus: true,
      }),
      node(C.button, [42, 462, 1038, 609], {
        contentDesc: 'Unlock',
        clickable: true,
        focusable: true,
        onClick: [
          { type: 'hideKeyboard' },
          { type: 'setText', node: 'lock_status', template: 'Unlocked' },
          { type: 'log', priority: 'I', tag: 'flutter', message: 'LockScreen: unlocked' },
        ],
      }),
      node(C.view, [42, 651, 1038, 780], { key: 'lock_status', text: '' }),
    ]),
  };
}

/**
 * The Calendar app's screen has three scrollable containers. A day strip
 * that scrolls sideways (a RecyclerView with a horizontal LinearLayoutManager: 14 day chips,
 * 3,528 px of content in a 1,080 px strip), the schedule (the largest vertical list, the main
 * container for up/down) and a task list in a bottom sheet below it, reachable only by name.
 * No oracle row counts its rows except SCROLL-H-1 and SCROLL-NAMED-1.
 */
function calendarMain(): ScreenSpec {
  const days = Array.from({ length: 14 }, (_, i): NodeSpec => {
    const left = 24 + i * 252;
    return node(C.text, [left, 273, left + 228, 441], {
      key: `day_${i + 1}`,
      text: `Dec ${i + 1}`,
      clickable: true,
      focusable: true,
      onClick: [{ type: 'setText', node: 'day_title', template: `Schedule for Dec ${i + 1}` }],
    });
  });
  const events = [
    'Team standup',
    'Design review',
    'Lunch with Sam',
    'Dentist',
    'Gym',
    'Call the bank',
    'Code review',
    'Flight to Lisbon',
    'Book club',
    'Pay rent',
    'Yoga',
    'Dinner with Ana',
  ];
  const tasks = [
    'Buy milk',
    'Renew passport',
    'Water the plants',
    'Send invoices',
    'Fix the bike',
    'Call grandma',
    'Back up photos',
    'Return library books',
    'Plan the trip',
    'Clean the oven',
  ];
  return {
    id: 'calendar_main',
    package: CALENDAR,
    activity: 'com.android.calendar.AllInOneActivity',
    root: appWindow([
      toolbar(CALENDAR, 'Calendar', false),
      list(`${CALENDAR}:id/day_strip`, [0, 252, 1080, 462], days, { key: 'day_strip', orientation: 'horizontal' }),
      node(C.text, [63, 483, 1017, 560], { key: 'day_title', text: 'Schedule for Dec 1' }),
      list(
        `${CALENDAR}:id/schedule`,
        [0, 580, 1080, 1500],
        stackRows(
          580,
          200,
          events.map((title, i) => ({ key: `event_${i}`, title, summary: `${String(8 + i).padStart(2, '0')}:00` })),
        ),
        { key: 'schedule' },
      ),
      node(C.imageButton, [849, 1310, 1017, 1478], {
        contentDesc: 'Create new event',
        clickable: true,
        focusable: true,
      }),
      node(
        C.frame,
        [0, 1500, 1080, CONTENT_BOTTOM],
        { key: 'bottom_sheet', resourceId: `${CALENDAR}:id/bottom_sheet` },
        [
          node(C.text, [63, 1520, 1017, 1590], { text: 'Tasks' }),
          list(
            `${CALENDAR}:id/task_list`,
            [0, 1600, 1080, CONTENT_BOTTOM],
            stackRows(
              1600,
              150,
              tasks.map((title, i) => ({ key: `task_${i}`, title })),
            ),
            { key: 'task_list' },
          ),
        ],
      ),
    ]),
  };
}

function placeholderApp(
  id: string,
  pkg: string,
  activity: string,
  title: string,
  extra: readonly NodeSpec[],
): ScreenSpec {
  return { id, package: pkg, activity, root: appWindow([toolbar(pkg, title, false), ...extra]) };
}

const SCREENS: readonly ScreenSpec[] = [
  launcherScreen(),
  notificationShadeScreen([
    { app: 'Notes', title: 'Reminder', text: 'Buy milk before 6 pm', onClick: [{ type: 'launch', package: NOTES }] },
    {
      app: 'Calendar',
      title: 'Standup in 10 minutes',
      text: 'Room 4',
      onClick: [{ type: 'launch', package: 'com.google.android.calendar' }],
    },
  ]),
  recentsScreen(),
  settingsHome(),
  settingsPage(),
  settingsNetwork(),
  settingsApps(),
  allApps(),
  appInfo(),
  settingsAccounts(),
  settingsAddAccount(),
  settingsSearch(),
  notesMain(),
  notesHistory(),
  notesSettings(),
  notesLock(),
  calendarMain(),
  placeholderApp('clock_main', 'com.google.android.deskclock', 'com.android.deskclock.DeskClock', 'Clock', [
    node(C.text, [63, 500, 1017, 760], { text: '10:42' }),
    // The scripted crash. Tapping it throws on the main thread, as a real bug would.
    node(C.imageButton, [456, 1900, 624, 2068], {
      contentDesc: 'Add alarm',
      clickable: true,
      focusable: true,
      onClick: [
        { type: 'log', priority: 'D', tag: 'AlarmClockFragment', message: 'onAddAlarm: opening the time picker' },
        {
          type: 'crash',
          exception: 'java.lang.IllegalStateException',
          message: 'Fragment AlarmClockFragment{4f3a2b1} not attached to a context.',
          frames: [
            'androidx.fragment.app.Fragment.requireContext(Fragment.java:972)',
            'com.android.deskclock.alarms.AlarmClockFragment.onAddAlarm(AlarmClockFragment.java:212)',
            'com.android.deskclock.alarms.AlarmClockFragment.lambda$onViewCreated$0(AlarmClockFragment.java:148)',
            'android.view.View.performClick(View.java:7659)',
            'android.view.View.performClickInternal(View.java:7636)',
            'android.view.View.-$$Nest$mperformClickInternal(Unknown Source:0)',
            'android.view.View$PerformClick.run(View.java:30156)',
            'android.os.Handler.handleCallback(Handler.java:958)',
            'android.os.Handler.dispatchMessage(Handler.java:99)',
            'android.os.Looper.loopOnce(Looper.java:205)',
            'android.os.Looper.loop(Looper.java:294)',
            'android.app.ActivityThread.main(ActivityThread.java:8177)',
            'java.lang.reflect.Method.invoke(Native Method)',
            'com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run(RuntimeInit.java:552)',
            'com.android.internal.os.ZygoteInit.main(ZygoteInit.java:971)',
          ],
        },
      ],
    }),
  ]),
  placeholderApp('chrome_main', 'com.android.chrome', 'com.google.android.apps.chrome.Main', 'New tab', [
    node(C.edit, [63, 300, 1017, 440], {
      resourceId: 'com.android.chrome:id/search_box_text',
      hint: 'Search or type URL',
      text: '',
      clickable: true,
      focusable: true,
      longClickable: true,
    }),
  ]),
];

/** Versions Appium compares against its own server packages; filled in by the device from node_modules when it can. */
export interface HelperVersions {
  readonly uiautomator2Server: string;
  readonly appiumSettings: string;
}

/**
 * The versionCode each helper APK's own manifest declares, for the versions this code was
 * written against (read with node-apk from node_modules; test/unit/virtual-device/helperVersionCodes
 * fails when the driver ships others). A device that claimed more would refuse Appium's own
 * `install -r` of the same build as a downgrade (the device judges installs as PackageManagerService does).
 * The androidTest APK declares none (0). Unknown versions: a code made from the name.
 */
export const HELPER_VERSION_CODES: Readonly<Record<string, number>> = Object.freeze({
  'io.appium.settings@8.0.9': 191,
  'io.appium.uiautomator2.server@10.6.6': 278,
  'io.appium.uiautomator2.server.test@10.6.6': 0,
});

function versionCode(pkg: string, version: string): number {
  const known = HELPER_VERSION_CODES[`${pkg}@${version}`];
  if (known !== undefined) return known;
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  return major * 10_000 + minor * 100 + patch;
}

/** Packages every device has, Appium's helpers included (installed and current, so Appium installs nothing). */
export function platformPackages(versions: HelperVersions): PackageSpec[] {
  return [
    { name: 'android', versionCode: 34, versionName: '14' },
    { name: 'com.android.systemui', versionCode: 34, versionName: '14' },
    { name: 'com.android.phone', versionCode: 34, versionName: '14' },
    { name: 'com.android.providers.settings', versionCode: 34, versionName: '14' },
    { name: 'com.android.shell', versionCode: 34, versionName: '14' },
    { name: 'com.google.android.inputmethod.latin', label: 'Gboard', versionCode: 139_000_000, versionName: '13.9.06' },
    {
      name: 'io.appium.settings',
      label: 'Appium Settings',
      thirdParty: true,
      versionCode: versionCode('io.appium.settings', versions.appiumSettings),
      versionName: versions.appiumSettings,
      launcher: { activity: '.Settings', screen: '' },
    },
    {
      name: 'io.appium.uiautomator2.server',
      thirdParty: true,
      versionCode: versionCode('io.appium.uiautomator2.server', versions.uiautomator2Server),
      versionName: versions.uiautomator2Server,
    },
    {
      name: 'io.appium.uiautomator2.server.test',
      thirdParty: true,
      versionCode: versionCode('io.appium.uiautomator2.server.test', versions.uiautomator2Server),
      versionName: versions.uiautomator2Server,
    },
  ];
}

function packages(versions: HelperVersions): PackageSpec[] {
  return [
    ...platformPackages(versions),
    {
      name: LAUNCHER,
      label: 'Pixel Launcher',
      versionCode: 34,
      versionName: '14',
      activities: { '.NexusLauncherActivity': 'launcher' },
    },
    {
      name: SETTINGS,
      label: 'Settings',
      versionCode: 34,
      versionName: '14',
      launcher: { activity: '.Settings', screen: 'settings_home' },
      activities: {
        '.Settings$AppDashboardActivity': 'settings_apps',
        '.Settings$ManageApplicationsActivity': 'all_apps',
        '.Settings$NetworkDashboardActivity': 'settings_network',
        '.Settings$AccountDashboardActivity': 'settings_accounts',
        '.accounts.AddAccountSettings': 'settings_add_account',
      },
    },
    {
      name: SEARCH,
      label: 'Settings Services',
      versionCode: 34,
      versionName: '14',
      activities: { '.modules.search.SearchActivity': 'settings_search' },
    },
    {
      name: 'com.google.android.calendar',
      label: 'Calendar',
      versionCode: 202_400_000,
      versionName: '2024.40.0',
      launcher: { activity: 'com.android.calendar.AllInOneActivity', screen: 'calendar_main' },
    },
    {
      name: 'com.google.android.deskclock',
      label: 'Clock',
      versionCode: 74_000_000,
      versionName: '7.4',
      launcher: { activity: 'com.android.deskclock.DeskClock', screen: 'clock_main' },
    },
    {
      name: 'com.android.chrome',
      label: 'Chrome',
      versionCode: 612_000_000,
      versionName: '129.0.6668.100',
      launcher: { activity: 'com.google.android.apps.chrome.Main', screen: 'chrome_main' },
      links: [
        { scheme: 'https', activity: 'com.google.android.apps.chrome.Main' },
        { scheme: 'http', activity: 'com.google.android.apps.chrome.Main' },
      ],
    },
    {
      name: NOTES,
      label: 'Notes',
      thirdParty: true,
      versionCode: 7,
      versionName: '1.2.0',
      launcher: { activity: '.MainActivity', screen: 'notes_main' },
      activities: { '.HistoryActivity': 'notes_history', '.LockActivity': 'notes_lock' },
      links: [
        { scheme: 'notes', host: 'history', activity: '.HistoryActivity' },
        { scheme: 'notes', host: 'lock', activity: '.LockActivity' },
      ],
    },
    ARCADE_PACKAGE,
    NEWS_PACKAGE,
  ];
}

export function defaultScenario(versions: HelperVersions): ScenarioSpec {
  return {
    name: 'default',
    home: 'launcher',
    packages: packages(versions),
    screens: [...SCREENS, ...ARCADE_SCREENS, ...NEWS_SCREENS],
    intents: {
      'android.settings.SETTINGS': 'settings_home',
      'android.settings.APPLICATION_SETTINGS': 'settings_apps',
      'android.settings.MANAGE_APPLICATIONS_SETTINGS': 'all_apps',
      'android.settings.MANAGE_ALL_APPLICATIONS_SETTINGS': 'all_apps',
      'android.settings.WIFI_SETTINGS': 'settings_network',
      'android.settings.WIRELESS_SETTINGS': 'settings_network',
    },
  };
}
