/**
 * A hybrid news app: a native toolbar (in the tree) over a WebView whose article the page never
 * exposed to accessibility, so the dump holds one childless WebView node and only the screenshot
 * shows the article, its link and its two buttons. A real WebView dumps this way until Chromium's
 * accessibility tree for the page is ready: WebContentsAccessibilityImpl (chromium
 * content/public/android/java/src/org/chromium/content/browser/accessibility/) lists the page's
 * nodes as the WebView's children only once `notifyFrameInfoInitialized` has run ("the chrome
 * accessibility tree is now ready and listed as the child of the container view"), and a page can
 * hide any of its content from that tree (`aria-hidden`). The screen lets the harness's visual refs
 * be tested on a light page with body text, not only on a game's dark menu.
 */
import { appWindow, node, toolbar } from './builders.js';
import type { DrawnSpec, PackageSpec, ScreenSpec } from './model.js';

export const NEWS = 'com.example.news';
const WEB_VIEW = 'android.webkit.WebView';
/** Below the toolbar to the navigation bar, as a hybrid app's content view. */
const WEB_VIEW_BOUNDS = [0, 252, 1080, 2274] as const;

/** One line of the article's body text, 84 px apart. */
function line(text: string, index: number): DrawnSpec {
  const top = 420 + index * 84;
  return { text, bounds: [48, top, 1032, top + 72], style: 'text' };
}

const consoleLog = (message: string) => ({ type: 'log' as const, priority: 'I' as const, tag: 'chromium', message });

function article(): ScreenSpec {
  const drawn: DrawnSpec[] = [
    { text: 'City opens riverside park', bounds: [48, 300, 1032, 384], style: 'text' },
    line('The new park runs two kilometres', 0),
    line('along the river and opens to the', 1),
    line('public on Saturday morning.', 2),
    {
      text: 'Read the full story',
      bounds: [48, 700, 640, 772],
      style: 'link',
      onClick: [consoleLog('[INFO:CONSOLE(12)] "link: full story"')],
    },
    {
      text: 'Subscribe',
      bounds: [48, 860, 516, 1010],
      onClick: [consoleLog('[INFO:CONSOLE(31)] "button: subscribe"')],
    },
    {
      text: 'Share',
      bounds: [564, 860, 1032, 1010],
      onClick: [consoleLog('[INFO:CONSOLE(32)] "button: share"')],
    },
    line('Local shops expect more visitors', 8),
    line('over the summer months.', 9),
  ];
  return {
    id: 'news_article',
    package: NEWS,
    activity: '.ArticleActivity',
    root: appWindow([
      toolbar(NEWS, 'Daily Planet', false),
      node(WEB_VIEW, WEB_VIEW_BOUNDS, { resourceId: `${NEWS}:id/article_web_view`, focusable: true, drawn }),
    ]),
  };
}

export const NEWS_SCREENS: readonly ScreenSpec[] = [article()];

export const NEWS_PACKAGE: PackageSpec = {
  name: NEWS,
  label: 'Daily Planet',
  versionCode: 12,
  versionName: '2.4.0',
  launcher: { activity: '.ArticleActivity', screen: 'news_article' },
};
