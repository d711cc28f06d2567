/**
 * The device app's page (the `ui://android-mcp-harness/device` resource): one HTML5 document with
 * its style and script inline, nothing fetched (the resource declares no outside origin, so the
 * host's restrictive default CSP applies). The script speaks the MCP Apps protocol over
 * postMessage itself, as SEP-1865 allows ("you don't need an SDK"), rather than carry the ext-apps
 * SDK's `App`: the project has no bundler, and the SDK's self-contained build is 540 kB of script in
 * every read of the page for the dozen messages used here. It speaks: `ui/initialize`, then
 * `ui/notifications/initialized`; it draws each `ui/notifications/tool-result` whose `_meta`
 * carries the app's data (DeviceApp.ts), reports its size, answers `ping` and
 * `ui/resource-teardown`, and reads the run's trace viewer with `resources/read` when asked.
 * Every text from the device is set as text, never as markup.
 */
import { APP_DATA_KEY } from './DeviceApp.js';

export const TRACE_VIEWER_URI = 'trace://session';
/** The protocol revision of MCP Apps the page speaks. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

const STYLE = `
:root { color-scheme: light dark; --bg: var(--color-background-primary, light-dark(#fff, #1b1b1b));
  --fg: var(--color-text-primary, light-dark(#1b1b1b, #f2f2f2)); --muted: var(--color-text-secondary, light-dark(#5b5b5b, #b0b0b0));
  --line: var(--color-border-secondary, light-dark(#d9d9d9, #3b3b3b)); --ref: #1a73e8; --act: #e8710a; --bad: #d93025; --good: #188038;
  font-family: var(--font-sans, system-ui, sans-serif); font-size: 13px; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
main { display: flex; gap: 12px; padding: 10px; align-items: flex-start; }
#screens { display: flex; gap: 8px; flex: 0 0 auto; }
figure { margin: 0; }
figcaption { color: var(--muted); font-size: 11px; margin-bottom: 3px; }
figure[hidden] { display: none; }
.phone { position: relative; width: 300px; border: 1px solid var(--line); border-radius: 10px; overflow: hidden; background: #000; min-height: 120px; }
main.two .phone { width: 220px; }
.phone img { display: block; width: 100%; height: auto; }
#empty { color: #ccc; padding: 40px 12px; text-align: center; }
.box { position: absolute; border: 1.5px solid var(--ref); border-radius: 3px; }
.box span { position: absolute; left: -1px; top: -1px; background: var(--ref); color: #fff; font: 600 10px/1.2 var(--font-mono, ui-monospace, monospace); padding: 0 3px; border-radius: 0 0 3px 0; }
.box:hover { background: rgba(26, 115, 232, .18); }
.acted { position: absolute; border: 3px solid var(--act); border-radius: 4px; box-shadow: 0 0 0 2px rgba(0,0,0,.35); pointer-events: none; }
#side { flex: 1 1 auto; min-width: 0; display: flex; flex-direction: column; gap: 8px; }
#caption { font-weight: 600; }
#caption .bad { color: var(--bad); }
#note { color: var(--muted); }
#entry { font: 12px/1.35 var(--font-mono, ui-monospace, monospace); white-space: pre-wrap; word-break: break-word; border: 1px solid var(--line); border-radius: 6px; padding: 6px; min-height: 2.6em; color: var(--muted); }
#strip { display: flex; gap: 6px; flex-wrap: wrap; }
.step { width: 86px; border: 1px solid var(--line); border-radius: 6px; padding: 3px; font-size: 11px; line-height: 1.25; overflow: hidden; }
.step.now { border-color: var(--ref); box-shadow: 0 0 0 1px var(--ref); }
.step img { display: block; width: 100%; height: 54px; object-fit: cover; object-position: top; border-radius: 3px; background: #000; }
.step .nothumb { height: 54px; border-radius: 3px; background: var(--line); }
.step b { display: block; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.step i { display: block; font-style: normal; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.step.failed b { color: var(--bad); }
button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid var(--line); background: transparent; color: var(--fg); cursor: pointer; align-self: flex-start; }
button[hidden] { display: none; }
#viewer { position: fixed; inset: 0; background: var(--bg); display: flex; flex-direction: column; }
#viewer[hidden] { display: none; }
#viewer header { display: flex; gap: 8px; align-items: center; padding: 6px 10px; border-bottom: 1px solid var(--line); }
#viewer iframe { flex: 1 1 auto; border: 0; width: 100%; }
`;

const SCRIPT = `
'use strict';
const DATA_KEY = ${JSON.stringify(APP_DATA_KEY)};
const TRACE_URI = ${JSON.stringify(TRACE_VIEWER_URI)};
const PROTOCOL = ${JSON.stringify(APPS_PROTOCOL_VERSION)};
const $ = (id) => document.getElementById(id);
let nextId = 1;
const pending = new Map();
let hostModes = [];

function send(message) { window.parent.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*'); }
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function notify(method, params) { send({ method, params }); }

window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  const message = event.data;
  if (!message || message.jsonrpc !== '2.0') return;
  if ('id' in message && !('method' in message)) {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(message.error.message || 'refused'));
    else waiting.resolve(message.result);
    return;
  }
  const params = message.params || {};
  switch (message.method) {
    case 'ui/notifications/tool-result': show(params); break;
    case 'ui/notifications/host-context-changed': context(params); break;
    case 'ui/resource-teardown': send({ id: message.id, result: {} }); break;
    case 'ping': send({ id: message.id, result: {} }); break;
    default: if ('id' in message) send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});

function context(hostContext) {
  if (!hostContext) return;
  if (hostContext.theme) document.documentElement.style.colorScheme = hostContext.theme;
  const variables = hostContext.styles && hostContext.styles.variables;
  if (variables) for (const [name, value] of Object.entries(variables)) if (value) document.documentElement.style.setProperty(name, value);
  if (Array.isArray(hostContext.availableDisplayModes)) hostModes = hostContext.availableDisplayModes;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function place(node, box, screen) {
  node.style.left = (100 * box[0] / screen.width) + '%';
  node.style.top = (100 * box[1] / screen.height) + '%';
  node.style.width = (100 * box[2] / screen.width) + '%';
  node.style.height = (100 * box[3] / screen.height) + '%';
}

function picture(screen, alt) {
  const img = el('img');
  img.alt = alt;
  img.src = 'data:image/png;base64,' + screen.png;
  return img;
}

function describe(ref) {
  return ref.entry ? JSON.stringify(ref.entry) : ref.ref + ' (not in this answer: an entry kept from an earlier read)';
}

function show(result) {
  const data = result && result._meta && result._meta[DATA_KEY];
  if (!data) return;
  const frame = $('frame');
  frame.replaceChildren();
  const before = $('before');
  before.replaceChildren();
  $('beforeFigure').hidden = !data.before;
  document.querySelector('main').classList.toggle('two', Boolean(data.before));
  const step = data.step;
  const caption = $('caption');
  caption.replaceChildren(el('span', '', 'Step ' + step.step + ' · ' + step.tool + (step.target ? ' · ' + step.target : '')));
  if (!step.ok) caption.append(el('span', 'bad', ' · ' + (step.code || 'failed')));
  const notes = [];
  if (data.screen) {
    const screen = data.screen;
    frame.append(picture(screen, 'The device screen after step ' + screen.step));
    $('afterCaption').textContent = data.before ? 'After step ' + screen.step : 'The screen after step ' + screen.step;
    for (const ref of data.refs) {
      const box = el('div', 'box');
      place(box, ref.bounds, screen);
      box.append(el('span', '', ref.ref));
      box.title = describe(ref);
      box.dataset.ref = ref.ref;
      box.addEventListener('mouseenter', () => { $('entry').textContent = describe(ref); });
      frame.append(box);
    }
    if (data.before && data.acted) {
      before.append(picture(data.before, 'The screen step ' + step.step + ' acted on'));
      const acted = el('div', 'acted');
      place(acted, data.acted, data.before);
      before.append(acted);
      $('beforeCaption').textContent = 'Acted on (after step ' + data.before.step + ')';
    }
    if (data.refs_step !== null) notes.push(data.refs.length + ' entries from step ' + data.refs_step + "'s read: hover one to see it as the model read it.");
    else notes.push('No read of this screen yet: its refs appear after the next screen read.');
    if (data.acted) notes.push('Outlined: what step ' + screen.step + ' acted on' + (data.acted_label ? ' (' + JSON.stringify(data.acted_label) + ')' : '') + '.');
  } else {
    frame.append(el('div', '', 'No screenshot yet.'));
    frame.lastChild.id = 'empty';
  }
  $('note').textContent = notes.join(' ');
  $('entry').textContent = 'Hover an entry on the screen.';
  const strip = $('strip');
  strip.replaceChildren();
  for (const item of data.steps) {
    const card = el('div', 'step' + (item.step === step.step ? ' now' : '') + (item.ok ? '' : ' failed'));
    if (item.thumb) { const thumb = el('img'); thumb.alt = ''; thumb.src = 'data:image/png;base64,' + item.thumb; card.append(thumb); }
    else card.append(el('div', 'nothumb'));
    card.append(el('b', '', item.step + ' ' + item.tool));
    card.append(el('i', '', item.ok ? (item.target || '') : (item.code || 'failed')));
    strip.append(card);
  }
  $('trace').hidden = !data.trace;
}

async function openTrace() {
  const button = $('trace');
  button.disabled = true;
  try {
    const result = await request('resources/read', { uri: TRACE_URI });
    const html = result && result.contents && result.contents[0] && result.contents[0].text;
    if (typeof html !== 'string') throw new Error('no viewer page in the answer');
    if (hostModes.includes('fullscreen')) await request('ui/request-display-mode', { mode: 'fullscreen' }).catch(() => undefined);
    const frame = document.createElement('iframe');
    frame.sandbox = 'allow-scripts';
    frame.title = 'The run\\'s trace viewer';
    frame.srcdoc = html;
    $('viewer').querySelector('iframe')?.remove();
    $('viewer').append(frame);
    $('viewer').hidden = false;
  } catch (error) {
    $('note').textContent = 'The trace viewer could not be read (' + error.message + '): run "android-mcp-harness trace view" on the run\\'s folder instead.';
  } finally {
    button.disabled = false;
  }
}

function closeTrace() {
  $('viewer').hidden = true;
  $('viewer').querySelector('iframe')?.remove();
  if (hostModes.includes('inline')) request('ui/request-display-mode', { mode: 'inline' }).catch(() => undefined);
}

$('trace').addEventListener('click', openTrace);
$('close').addEventListener('click', closeTrace);

let lastSize = '';
new ResizeObserver(() => {
  const width = Math.ceil(document.documentElement.scrollWidth);
  const height = Math.ceil(document.documentElement.scrollHeight);
  const size = width + 'x' + height;
  if (size === lastSize) return;
  lastSize = size;
  notify('ui/notifications/size-changed', { width, height });
}).observe(document.body);

request('ui/initialize', {
  appInfo: { name: 'android-mcp-harness device', version: '1' },
  appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
  protocolVersion: PROTOCOL,
}).then((result) => {
  context(result && result.hostContext);
  notify('ui/notifications/initialized', {});
}, (error) => { $('note').textContent = 'The host refused to start the app: ' + error.message; });
`;

/** The page, as `resources/read` answers it. */
export const DEVICE_VIEW_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Android device</title>
<style>${STYLE}</style>
</head>
<body>
<main>
  <div id="screens">
    <figure id="beforeFigure" hidden><figcaption id="beforeCaption">Acted on</figcaption><div id="before" class="phone"></div></figure>
    <figure><figcaption id="afterCaption">The screen</figcaption><div id="frame" class="phone"><div id="empty">Waiting for the first screen…</div></div></figure>
  </div>
  <div id="side">
    <div id="caption">Android device</div>
    <div id="note"></div>
    <div id="entry">Hover an entry on the screen.</div>
    <div id="strip"></div>
    <button id="trace" type="button" hidden>Open the run's trace viewer</button>
  </div>
</main>
<div id="viewer" hidden><header><button id="close" type="button">Back to the device</button><span>The run's trace viewer</span></header></div>
<script>${SCRIPT}</script>
</body>
</html>
`;
