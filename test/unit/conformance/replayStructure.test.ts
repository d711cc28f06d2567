/**
 * The replay's screen and comparison on small hand-written exchanges of each class the held-out
 * logs showed: finds that walk the tree (`/child`, `following-sibling::`, `ancestor::`,
 * `(…)[n]//…`, a path in a predicate), the password flag, bodies Appium 1.x logged as JSON strings,
 * and the JSONWP session answers ("Created Session", "Session deleted"). In-process against the
 * virtual device's UiAutomator2 server, as `npm run conformance` replays; no ../shared data.
 */
import { describe, expect, it } from 'vitest';
import type { CorpusFile, Exchange } from '../../../scripts/conformance/corpus.js';
import { runConformance, type Outcome } from '../../../scripts/conformance/replay.js';
import { jsonwpSessionAnswer, parseLoggedBody, sameSessionAnswer } from '../../../scripts/conformance/jsonwp.js';
import { isStructural, xpathTree } from '../../../scripts/conformance/xpathTree.js';

const W3C = 'element-6066-11e4-a52e-4f735466cecf';
let line = 0;
const exchange = (
  method: string,
  path: string,
  requestBody: unknown,
  status: number,
  responseBody: unknown,
): Exchange => ({
  method,
  path,
  requestBody,
  status,
  responseBody,
  truncated: false,
  line: ++line,
  versions: {},
});
const w3cSession = (): Exchange[] => [
  exchange('POST', '/session', { capabilities: { firstMatch: [{ platformName: 'Android' }], alwaysMatch: {} } }, 200, {
    sessionId: 's1',
    value: { capabilities: { firstMatch: [{ platformName: 'Android' }], alwaysMatch: {} }, sessionId: 's1' },
  }),
];
const found = (selector: string, id: string): Exchange =>
  exchange('POST', '/session/:sessionId/element', { strategy: 'xpath', selector, context: '' }, 200, {
    sessionId: 's1',
    value: { ELEMENT: id, [W3C]: id },
  });
const file = (exchanges: Exchange[]): { file: string; corpus: CorpusFile } => ({
  file: 'hand-written.json',
  corpus: { source: { repository: 'example/hand-written', redactions: 'none' }, exchanges },
});
const describeOutcome = (o: Outcome): string =>
  `${o.line} ${o.method} ${o.path}: ${o.differences.map((d) => `${d.kind} ${d.detail}`).join('; ')}`;

async function replay(exchanges: Exchange[]): Promise<Outcome[]> {
  const report = await runConformance({ corpus: [file(exchanges)], notReproducible: [] });
  return report.outcomes.filter((o) => o.differences.length > 0);
}

const STRUCTURAL = [
  '//*[@text="Next"]/following-sibling::android.widget.Button',
  '//android.widget.LinearLayout[@resource-id="com.example:id/row"]/android.widget.TextView[2]',
  '//android.widget.TextView[@text="Wi-Fi"]/ancestor::android.widget.LinearLayout[1]',
  '(//android.widget.ListView)[2]//android.widget.CheckBox',
  "//android.widget.LinearLayout[./android.widget.TextView[@text='Bluetooth']]//android.widget.Switch",
  "//android.widget.TextView[@text='Mode']/../android.widget.Spinner",
];

describe('conformance replay: structure the log implies', () => {
  it('reads which xpaths walk the tree', () => {
    for (const s of STRUCTURAL) expect(isStructural(s), s).toBe(true);
    expect(isStructural('//android.widget.Button[@text="OK"]')).toBe(false);
    expect(isStructural('(//android.widget.Button)[3]')).toBe(false);
    // An absolute path names a real screen's positions from its root: only a recorded page source has them.
    expect(isStructural('/hierarchy/android.widget.FrameLayout/android.widget.TextView')).toBe(false);
  });

  it('builds the ancestors, siblings and positions a structural xpath names', () => {
    const tree = xpathTree('//android.widget.TextView[@text="Wi-Fi"]/ancestor::android.widget.LinearLayout[1]');
    expect(tree?.target?.cls).toBe('android.widget.LinearLayout');
    expect(tree?.target?.children[0]).toMatchObject({ cls: 'android.widget.TextView', attrs: { text: 'Wi-Fi' } });
    const grouped = xpathTree('(//android.widget.ListView)[2]//android.widget.CheckBox');
    expect(grouped?.top.children.map((c) => c.cls)).toEqual(['android.widget.ListView', 'android.widget.ListView']);
    expect(grouped?.top.children[1]?.children[0]?.cls).toBe('android.widget.CheckBox');
  });

  it('finds what the real server found for each structural xpath, and acts on it', async () => {
    const exchanges = [...w3cSession()];
    STRUCTURAL.forEach((selector, i) => {
      exchanges.push(found(selector, `id-${i}`));
      exchanges.push(
        exchange('POST', `/session/:sessionId/element/id-${i}/click`, {}, 200, { sessionId: 's1', value: null }),
      );
    });
    expect((await replay(exchanges)).map(describeOutcome)).toEqual([]);
  });

  it('writes the password flag an xpath asks for', async () => {
    const selector = "//android.widget.EditText[@password='true']";
    const exchanges = [
      ...w3cSession(),
      found(selector, 'pw'),
      exchange('GET', '/session/:sessionId/element/pw/attribute/password', null, 200, {
        sessionId: 's1',
        value: 'true',
      }),
    ];
    expect((await replay(exchanges)).map(describeOutcome)).toEqual([]);
  });

  it('replays on the page source the same log recorded, so an absolute path finds what it found', async () => {
    const n = (attrs: string, children = ''): string =>
      `<node ${attrs} package="com.example" clickable="true" enabled="true" password="false">${children}</node>`;
    const source =
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0" width="1080" height="2400">` +
      n(
        'index="0" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]"',
        n('index="0" class="android.widget.TextView" text="Title" bounds="[0,100][1080,200]"') +
          n('index="1" class="android.widget.TextView" text="Body" bounds="[0,200][1080,300]"'),
      ) +
      '</hierarchy>';
    const exchanges = [
      ...w3cSession(),
      exchange('GET', '/session/:sessionId/source', null, 200, { sessionId: 's1', value: source }),
      found('/hierarchy/android.widget.FrameLayout/android.widget.TextView[2]', 'body'),
      exchange('GET', '/session/:sessionId/element/body/text', null, 200, { sessionId: 's1', value: 'Body' }),
    ];
    expect((await replay(exchanges)).map(describeOutcome)).toEqual([]);
  });

  it('still reports a find the screen it builds cannot satisfy', async () => {
    // A node whose class must be both a Button and a TextView exists on no screen: the replay must say so.
    const differs = await replay([
      ...w3cSession(),
      found('//android.widget.Button[@text="Go"]/self::android.widget.TextView', 'x'),
    ]);
    expect(differs.length).toBeGreaterThan(0);
  });
});

describe('conformance replay: JSONWP-era shapes', () => {
  it('parses a body Appium logged as a JSON string', () => {
    expect(parseLoggedBody('{"strategy":"id","selector":"ok"}')).toEqual({ strategy: 'id', selector: 'ok' });
    expect(parseLoggedBody('Created Session')).toBe('Created Session');
    expect(parseLoggedBody({ a: 1 })).toEqual({ a: 1 });
  });

  it('compares "Created Session" and "Session deleted" by what they say', () => {
    const created = exchange('POST', '/session', {}, 200, { sessionId: 'a', status: 0, value: 'Created Session' });
    const deleted = exchange('DELETE', '/session/:sessionId', null, 200, {
      sessionId: 'a',
      status: 0,
      value: 'Session deleted',
    });
    expect(jsonwpSessionAnswer(created)).toBe('created');
    expect(jsonwpSessionAnswer(deleted)).toBe('deleted');
    expect(sameSessionAnswer('created', { status: 200, body: { sessionId: 'b', value: { capabilities: {} } } })).toBe(
      true,
    );
    expect(sameSessionAnswer('created', { status: 500, body: { value: { error: 'session not created' } } })).toBe(
      false,
    );
    expect(sameSessionAnswer('created', { status: 200, body: { value: null } })).toBe(false);
  });

  it("replays an old server's session, a string-logged find and its JSONWP element", async () => {
    const exchanges = [
      exchange('POST', '/session', { desiredCapabilities: { platformName: 'Android' } }, 200, {
        sessionId: 'old',
        status: 0,
        value: 'Created Session',
      }),
      exchange(
        'POST',
        '/session/:sessionId/element',
        '{"strategy":"id","selector":"com.example:id/ok","context":"","multiple":false}',
        200,
        '{"sessionId":"old","status":0,"value":{"ELEMENT":"e1"}}',
      ),
      exchange(
        'POST',
        '/session/:sessionId/element/e1/click',
        '{"element":"e1"}',
        200,
        '{"sessionId":"old","status":0,"value":null}',
      ),
      exchange('DELETE', '/session/:sessionId', null, 200, { sessionId: 'old', status: 0, value: 'Session deleted' }),
    ];
    expect((await replay(exchanges)).map(describeOutcome)).toEqual([]);
  });
});
