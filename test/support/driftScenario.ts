/**
 * An app whose home screen drifts between runs, for the flow runner's repair: the same app with a
 * label renamed ("Drafts" → "Draft notes"), an id changed (the Compose button's `compose` →
 * `write`), or the Drafts row gone and two look-alikes in its stead ("Old drafts", "New drafts":
 * a tie no repair may decide). The folder rows share one resource id (as Settings rows share
 * android:id/title), so a row is named by its text, which is what a rename breaks.
 */
import { C, appWindow, node, toolbar } from '../../packages/virtual-device/src/scenario/builders.js';
import type { NodeSpec, ScenarioSpec } from '../../packages/virtual-device/src/scenario/model.js';

export const DRIFT_PACKAGE = 'com.example.folders';
export type DriftVariant = 'base' | 'renamed' | 'id-changed' | 'tie';

const HOME = 'folders_home';
const DRAFTS = 'folders_drafts';
const COMPOSE = 'folders_compose';

function folderRow(title: string, top: number, opens: string | null): NodeSpec {
  return node(
    C.linear,
    [0, top, 1080, top + 168],
    {
      resourceId: `${DRIFT_PACKAGE}:id/folder`,
      clickable: true,
      focusable: true,
      onClick: opens ? [{ type: 'goto', screen: opens }] : [],
    },
    [node(C.text, [63, top + 50, 1017, top + 118], { text: title })],
  );
}

function rowsOf(variant: DriftVariant): NodeSpec[] {
  const titles: readonly (readonly [string, string | null])[] =
    variant === 'tie'
      ? [
          ['Inbox', null],
          ['Archive', null],
          ['Old drafts', DRAFTS],
          ['New drafts', DRAFTS],
        ]
      : [
          ['Inbox', null],
          [variant === 'renamed' ? 'Draft notes' : 'Drafts', DRAFTS],
          ['Archive', null],
        ];
  return titles.map(([title, opens], i) => folderRow(title, 500 + i * 168, opens));
}

export function withDriftingFolders(base: ScenarioSpec, variant: DriftVariant): ScenarioSpec {
  return {
    ...base,
    packages: [
      ...base.packages,
      { name: DRIFT_PACKAGE, thirdParty: true, launcher: { activity: '.FoldersActivity', screen: HOME } },
    ],
    screens: [
      ...base.screens,
      {
        id: HOME,
        package: DRIFT_PACKAGE,
        activity: '.FoldersActivity',
        root: appWindow([
          toolbar(DRIFT_PACKAGE, 'Folders', false),
          node(C.button, [63, 300, 500, 430], {
            text: 'Compose',
            resourceId: `${DRIFT_PACKAGE}:id/${variant === 'id-changed' ? 'write' : 'compose'}`,
            clickable: true,
            focusable: true,
            onClick: [{ type: 'goto', screen: COMPOSE }],
          }),
          node(C.linear, [0, 500, 1080, 1400], { contentDesc: 'Folder list' }, rowsOf(variant)),
        ]),
      },
      {
        id: DRAFTS,
        package: DRIFT_PACKAGE,
        activity: '.DraftsActivity',
        root: appWindow([
          toolbar(DRIFT_PACKAGE, 'Drafts'),
          node(C.text, [63, 400, 1017, 480], { text: 'No drafts yet' }),
        ]),
      },
      {
        id: COMPOSE,
        package: DRIFT_PACKAGE,
        activity: '.ComposeActivity',
        root: appWindow([
          toolbar(DRIFT_PACKAGE, 'New note'),
          node(C.text, [63, 400, 1017, 480], { text: 'Write something' }),
        ]),
      },
    ],
  };
}
