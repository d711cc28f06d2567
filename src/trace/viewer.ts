/**
 * `trace view`: one self-contained page (no network: style, script, data and pictures inline, the
 * screenshots as data: URIs) showing a trace step by step: the screen the model acted on with the
 * element outlined and the layout findings drawn, the screen after, the target as sent, the
 * answer, the time taken, and the summary the model had read (a link to its step; viewerReads.ts
 * finds it, diffs included). Every number is a step, never a trace line. Keyboard: ↑/↓, ←/→, j/k,
 * Home/End.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { entryNamed, readTrace, type Box, type ScreenRead, type Trace, type TraceCall } from './readTrace.js';
import { TraceReads, type EntryAt, type ReadAt } from './viewerReads.js';

export const VIEWER_FILE = 'index.html';

interface Mark {
  readonly box: Box;
  readonly label: string;
}

/** A step of the trace other parts of a step point at, with what to call it. */
interface StepLink {
  /** 1-based, as the list numbers the steps. */
  readonly step: number;
  readonly text: string;
}

interface ViewStep {
  readonly line: number;
  readonly tool: string;
  readonly ok: boolean;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly started_at: string;
  readonly duration_ms: number;
  readonly device: string | null;
  readonly target: unknown;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly envelope: unknown;
  /** The step whose answer was the last read before this call (diffs and parts included). */
  readonly read_before: StepLink | null;
  /** The step whose read lists the element acted on (the ref's or the selector's entry), when known. */
  readonly element_from: StepLink | null;
  readonly read: unknown;
  /** The screen before the call (the last evidence of an earlier call) and after it (its own). */
  readonly before: string | null;
  readonly after: string | null;
  readonly screen: { readonly width: number; readonly height: number } | null;
  readonly outline: Mark | null;
  readonly outline_note: string | null;
  readonly findings: readonly Mark[];
}

/** Writes `<dir>/index.html`; returns its path. */
export function writeViewer(dir: string): string {
  const trace = readTrace(dir);
  const file = path.join(dir, VIEWER_FILE);
  writeFileSync(file, viewerHtml(trace));
  return file;
}

export function viewerHtml(trace: Trace): string {
  const images: Record<string, string> = {};
  const missing = new Set<string>();
  const image = (id: string | null): string | null => {
    if (id === null) return null;
    if (!(id in images) && !missing.has(id)) {
      const bytes = trace.evidence(id);
      if (bytes) images[id] = `data:image/png;base64,${bytes.toString('base64')}`;
      else missing.add(id);
    }
    return id;
  };
  const reads = new TraceReads(trace.calls);
  let lastScreen: string | null = null;
  const steps: ViewStep[] = trace.calls.map((call, index) => {
    const own = call.evidence[0] ?? null;
    const step = viewStep(call, index, reads, image(lastScreen), image(own));
    if (own !== null) lastScreen = own;
    return step;
  });
  const data = {
    name: trace.name,
    start: trace.start,
    skipped: trace.skipped,
    steps,
    images,
    missing: [...missing],
  };
  // `<` escaped: no string in the data can end the script element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return PAGE.replace('__TITLE__', escapeHtml(`Trace ${trace.name}`)).replace('__DATA__', () => json);
}

/** The `element` record an acting line carries (the element as the server resolved it): only its bounds are read here. */
const elementSchema = z.object({ bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]) }).loose();

function elementBounds(call: TraceCall): Box | undefined {
  const parsed = elementSchema.safeParse((call as Readonly<Record<string, unknown>>).element);
  return parsed.success ? parsed.data.bounds : undefined;
}

/** "step 9 (ui_tap's after, a diff of step 2's read)": what a read is, by step. */
function describeRead(at: ReadAt, calls: readonly TraceCall[], reads: TraceReads): string {
  const tool = calls[at.index]?.tool ?? 'a call';
  const what = isRecord(calls[at.index]?.envelope.data.after) ? `${tool}'s after` : tool;
  const base = reads.base(at);
  const diff = at.diffOf === null ? '' : base ? `, a diff of step ${base.index + 1}'s read` : ', a diff';
  return `step ${at.index + 1} (${what}${diff})`;
}

function viewStep(
  call: TraceCall,
  index: number,
  reads: TraceReads,
  before: string | null,
  after: string | null,
): ViewStep {
  const calls = reads.calls;
  const { session_id: _session, ...shown } = call.arguments;
  const target = shown.selector ?? (shown.package_name !== undefined ? { package_name: shown.package_name } : null);
  const last = reads.before(index);
  const held = heldEntry(reads, index, last, shown.selector);
  const entry = held?.entry ?? null;
  const ref = typeof entry?.ref === 'string' ? entry.ref : null;
  // Where the server resolved the element (the line's element record), else where the tap pressed,
  // else the entry's place in the read that listed it (only a tree's line keeps places).
  const box = elementBounds(call) ?? call.acted_bounds ?? (ref !== null && held ? held.at.bounds[ref] : undefined);
  const label = entry
    ? labelOf(entry)
    : typeof call.envelope.data.element_label === 'string' && call.envelope.data.element_label !== ''
      ? call.envelope.data.element_label
      : labelOf(isRecord(shown.selector) ? shown.selector : {});
  const outline = box ? { box, label } : null;
  const from = held ? describeRead(held.at, calls, reads) : null;
  const outlineNote =
    shown.selector === undefined || outline
      ? null
      : held
        ? `The element is entry ${ref ?? labelOf(held.entry)} of ${from ?? 'a read'}, which kept no positions (only ui_get_tree's lines keep them), and this call's line says nowhere where it acted, so it is not outlined.`
        : last
          ? `The element is not among the entries of the screen read before this call (${describeRead(last, calls, reads)}, with the reads it patches) and this call's line says nowhere where it acted, so it is not outlined.`
          : 'No summary was read before this call, so the element is not outlined.';
  const read = last ? readTraceRecord(last) : null;
  const screen = read && isScreen(screenOf(reads, last)) ? (screenOf(reads, last) as ScreenSize) : null;
  // The findings of the summary the model read, drawn on the screen it read (tree calls: their own).
  const own = call.bounds
    ? {
        summary: call.envelope.data,
        actions: (call.envelope.data.actions as SummaryEntryList) ?? [],
        bounds: call.bounds,
      }
    : null;
  const findingsOf = own ?? read;
  return {
    line: call.line,
    tool: call.tool,
    ok: call.ok,
    error: call.envelope.error,
    started_at: call.started_at,
    duration_ms: call.duration_ms,
    device: call.device,
    target,
    arguments: shown,
    envelope: call.envelope,
    read_before: last ? { step: last.index + 1, text: describeRead(last, calls, reads) } : null,
    element_from:
      held && from !== null
        ? {
            step: held.at.index + 1,
            text: `${from}: ${ref !== null ? `entry ${ref}` : 'the entry its selector names'}`,
          }
        : null,
    read: last?.summary ?? null,
    before,
    after,
    screen: own && isScreen(own.summary.screen) ? own.summary.screen : screen,
    outline,
    outline_note: outlineNote,
    findings: findingsOf ? findings(findingsOf) : [],
  };
}

type ScreenSize = { readonly width: number; readonly height: number };

/** The screen size the read says (a diff says none: its base does). */
function screenOf(reads: TraceReads, at: ReadAt | null): unknown {
  for (let read = at, hops = 0; read !== null && hops < 16; read = reads.base(read), hops++)
    if (read.summary.screen !== undefined) return read.summary.screen;
  return undefined;
}

/** A read in the shape the findings are drawn from. */
function readTraceRecord(at: ReadAt): Pick<ScreenRead, 'summary' | 'actions' | 'bounds'> {
  return { summary: at.summary, actions: at.entries, bounds: at.bounds };
}

/** The entry the call's ref or selector named on the screen the model held, with the read that listed it. */
function heldEntry(reads: TraceReads, index: number, last: ReadAt | null, selector: unknown): EntryAt | null {
  if (!isRecord(selector)) return null;
  if (typeof selector.ref === 'string') return reads.holderOf(selector.ref, index);
  if (!last) return null;
  const screen = reads.screen(last);
  const asRead: ScreenRead = { line: 0, summary: last.summary, actions: screen.map((e) => e.entry), bounds: {} };
  const entry = entryNamed(asRead, selector);
  return entry ? (screen.find((e) => e.entry === entry) ?? null) : null;
}

type SummaryEntryList = readonly Readonly<Record<string, unknown>>[];

function findings(read: Pick<ScreenRead, 'summary' | 'actions' | 'bounds'>): Mark[] {
  const list = Array.isArray(read.summary.layout_findings) ? (read.summary.layout_findings as unknown[]) : [];
  const marks: Mark[] = [];
  for (const finding of list) {
    if (typeof finding !== 'object' || finding === null) continue;
    // Answers name the actions by ref; traces written before did by index in `actions`.
    const { issue, actions, refs } = finding as { issue?: unknown; actions?: unknown; refs?: unknown };
    if (typeof issue !== 'string') continue;
    const named = Array.isArray(refs) ? refs : Array.isArray(actions) ? actions : [];
    for (const item of named) {
      const ref = typeof item === 'number' ? read.actions[item]?.ref : item;
      const box = typeof ref === 'string' ? read.bounds[ref] : undefined;
      if (box) marks.push({ box, label: issue });
    }
  }
  return marks;
}

function labelOf(entry: Readonly<Record<string, unknown>>): string {
  for (const key of ['label', 'text', 'content_desc', 'input_hint', 'id', 'resource_id']) {
    if (typeof entry[key] === 'string') return entry[key];
  }
  return typeof entry.ref === 'string' ? entry.ref : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScreen(value: unknown): value is { width: number; height: number } {
  const screen = value as { width?: unknown; height?: unknown } | null;
  return (
    typeof screen?.width === 'number' && typeof screen.height === 'number' && screen.width > 0 && screen.height > 0
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>__TITLE__</title>
<style>
  :root { --bad: #b3261e; --bad-bg: #fde7e6; --ok: #1e6b34; --line: #d0d4da; --focus: #1a56db; --mark: #e8590c; --act: #1a56db; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; display: grid; grid-template-columns: 290px 1fr; height: 100vh; }
  header { grid-column: 1 / 3; padding: 6px 14px; border-bottom: 1px solid var(--line); display: flex; gap: 16px; align-items: baseline; }
  header h1 { font-size: 15px; margin: 0; }
  header .hint { color: #59636e; font-size: 12px; margin-left: auto; }
  body { grid-template-rows: auto 1fr; }
  nav { overflow-y: auto; border-right: 1px solid var(--line); }
  nav ol { list-style: none; margin: 0; padding: 0; }
  nav button { all: unset; box-sizing: border-box; display: grid; grid-template-columns: 28px 1fr auto; gap: 6px; width: 100%; padding: 6px 10px; border-bottom: 1px solid #eef0f2; cursor: pointer; }
  nav button:hover { background: #f4f6f8; }
  nav button[aria-current="true"] { background: #e7efff; }
  nav button:focus-visible { outline: 3px solid var(--focus); outline-offset: -3px; }
  nav .n { color: #59636e; text-align: right; }
  nav .tool { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  nav .t { color: #59636e; font-variant-numeric: tabular-nums; }
  nav .sub { grid-column: 2 / 4; color: #59636e; font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  nav button.failed { background: var(--bad-bg); }
  nav button.failed .tool { color: var(--bad); }
  nav button.failed .tool::before { content: "✗ "; }
  main { overflow-y: auto; padding: 10px 16px 24px; }
  .verdict { padding: 6px 10px; border-radius: 4px; margin: 0 0 8px; font-weight: 600; }
  .verdict.ok { background: #e6f4ea; color: var(--ok); }
  .verdict.failed { background: var(--bad-bg); color: var(--bad); border-left: 6px solid var(--bad); }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 10px; }
  dt { color: #59636e; }
  dd { margin: 0; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; word-break: break-word; }
  .screens { display: flex; gap: 16px; flex-wrap: wrap; margin-bottom: 10px; }
  figure { margin: 0; }
  figcaption { font-size: 12px; color: #59636e; margin-bottom: 4px; }
  .shot { position: relative; display: inline-block; border: 1px solid var(--line); line-height: 0; }
  .shot img { height: min(56vh, 520px); width: auto; display: block; }
  .box { position: absolute; border: 3px solid var(--act); background: rgba(26, 86, 219, .12); }
  .box.finding { border: 2px dashed var(--mark); background: rgba(232, 89, 12, .10); }
  .box span { position: absolute; left: -3px; top: -18px; font: 600 11px/16px system-ui, sans-serif; color: #fff; background: var(--act); padding: 0 4px; white-space: nowrap; }
  .box.finding span { background: var(--mark); top: auto; bottom: -18px; }
  .none { height: min(56vh, 520px); width: 180px; display: flex; align-items: center; justify-content: center; text-align: center; color: #59636e; border: 1px dashed var(--line); padding: 8px; line-height: 1.3; }
  .note { color: #59636e; font-size: 12px; }
  details { margin: 6px 0; }
  summary { cursor: pointer; font-weight: 600; }
  summary:focus-visible { outline: 3px solid var(--focus); }
  button.jump { all: unset; cursor: pointer; color: var(--focus); text-decoration: underline; }
  button.jump:focus-visible { outline: 3px solid var(--focus); }
  pre { background: #f6f8fa; padding: 8px; overflow: auto; max-height: 40vh; font-size: 12px; margin: 4px 0; white-space: pre-wrap; word-break: break-word; }
</style>
</head>
<body>
<header><h1 id="title"></h1><span id="totals"></span><span class="hint">↑/↓ or j/k: previous/next step · Home/End: first/last</span></header>
<nav aria-label="Steps"><ol id="steps"></ol></nav>
<main id="detail" tabindex="-1" aria-live="polite"></main>
<script id="trace-data" type="application/json">__DATA__</script>
<script>
"use strict";
(function () {
  var data = JSON.parse(document.getElementById("trace-data").textContent);
  var steps = data.steps;
  var list = document.getElementById("steps");
  var detail = document.getElementById("detail");
  var buttons = [];
  var current = -1;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) for (var key in attrs) {
      if (key === "text") node.textContent = attrs[key];
      else if (key === "className") node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    }
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function secs(ms) { return ms >= 1000 ? (ms / 1000).toFixed(1) + " s" : ms + " ms"; }
  function short(value) { var text = value === null || value === undefined ? "" : JSON.stringify(value); return text.length > 80 ? text.slice(0, 79) + "…" : text; }

  document.getElementById("title").textContent = "Trace " + data.name;
  var failed = steps.filter(function (s) { return !s.ok; }).length;
  var total = steps.reduce(function (sum, s) { return sum + s.duration_ms; }, 0);
  document.getElementById("totals").textContent = steps.length + " calls, " + (failed ? failed + " failed, " : "") + secs(total) + (data.skipped ? " (" + data.skipped + " unreadable lines skipped)" : "");

  steps.forEach(function (step, index) {
    var button = el("button", { type: "button", className: step.ok ? "" : "failed", "aria-label": "Step " + (index + 1) + ": " + step.tool + (step.ok ? "" : ", failed") }, [
      el("span", { className: "n", text: String(index + 1) }),
      el("span", { className: "tool", text: step.tool }),
      el("span", { className: "t", text: secs(step.duration_ms) }),
      el("span", { className: "sub", text: step.ok ? short(step.target) : step.error ? step.error.code : "failed" })
    ]);
    button.addEventListener("click", function () { show(index, true); });
    buttons.push(button);
    list.appendChild(el("li", null, [button]));
  });

  // A link to another step: "step 9 (ui_tap's after, a diff of step 2's read)", the step number a button.
  function jump(link) {
    var prefix = "step " + link.step;
    var button = el("button", { type: "button", className: "jump", "data-step": String(link.step), text: prefix });
    button.addEventListener("click", function () { show(link.step - 1, true); });
    var rest = link.text.indexOf(prefix) === 0 ? link.text.slice(prefix.length) : " " + link.text;
    return el("span", null, [button, document.createTextNode(rest)]);
  }
  function pct(value, whole) { return (100 * value / whole).toFixed(3) + "%"; }
  function shot(id, caption, step, marks) {
    var figure = el("figure", null, [el("figcaption", { text: caption })]);
    if (id === null || !data.images[id]) {
      figure.appendChild(el("div", { className: "none", text: id === null ? "No screenshot: no earlier call left one." : "The screenshot " + id + " is no longer on disk." }));
      return figure;
    }
    var frame = el("div", { className: "shot" });
    var img = el("img", { src: data.images[id], alt: caption });
    frame.appendChild(img);
    function place() {
      var width = step.screen ? step.screen.width : img.naturalWidth;
      var height = step.screen ? step.screen.height : img.naturalHeight;
      if (!width || !height) return;
      marks.forEach(function (mark) {
        var box = el("div", { className: mark.kind === "finding" ? "box finding" : "box", title: mark.label });
        box.style.left = pct(mark.box[0], width); box.style.top = pct(mark.box[1], height);
        box.style.width = pct(mark.box[2], width); box.style.height = pct(mark.box[3], height);
        box.appendChild(el("span", { text: mark.label }));
        frame.appendChild(box);
      });
    }
    if (img.complete) place(); else img.addEventListener("load", place);
    figure.appendChild(frame);
    return figure;
  }

  function show(index, focus) {
    if (index < 0 || index >= steps.length) return;
    if (current >= 0) buttons[current].removeAttribute("aria-current");
    current = index;
    var step = steps[index];
    buttons[index].setAttribute("aria-current", "true");
    if (focus) buttons[index].focus();
    buttons[index].scrollIntoView({ block: "nearest" });
    var marks = step.findings.map(function (f) { return { box: f.box, label: f.label, kind: "finding" }; });
    if (step.outline) marks.push({ box: step.outline.box, label: step.outline.label, kind: "target" });
    var nodes = [
      el("p", { className: "verdict " + (step.ok ? "ok" : "failed"), text: "Step " + (index + 1) + " · " + step.tool + " · " + (step.ok ? "ok" : "FAILED: " + (step.error ? step.error.code + ": " + step.error.message : "")) }),
      el("dl", null, [
        el("dt", { text: "target" }), el("dd", { text: step.target === null ? "—" : JSON.stringify(step.target) }),
        el("dt", { text: "arguments" }), el("dd", { text: JSON.stringify(step.arguments) }),
        el("dt", { text: "time" }), el("dd", { text: secs(step.duration_ms) + " · started " + step.started_at }),
        el("dt", { text: "device" }), el("dd", { text: step.device || "—" }),
        el("dt", { text: "read before" }), el("dd", { className: "read-before" }, [step.read_before === null ? document.createTextNode("nothing yet") : jump(step.read_before)]),
        step.element_from ? el("dt", { text: "element from" }) : null, step.element_from ? el("dd", { className: "element-from" }, [jump(step.element_from)]) : null
      ]),
      el("div", { className: "screens" }, [
        shot(step.before, step.tool === "ui_get_tree" ? "The screen read" : "Before: the screen acted on", step, marks),
        step.after !== null ? shot(step.after, "After: this call's evidence", step, []) : null
      ]),
      step.outline_note ? el("p", { className: "note", text: step.outline_note }) : null,
      step.findings.length ? el("p", { className: "note", text: "Dashed: layout findings of the summary (" + step.findings.map(function (f) { return f.label; }).join(", ") + ")." }) : null,
      el("details", { open: "" }, [el("summary", { text: "Answer (envelope)" }), el("pre", { text: JSON.stringify(step.envelope, null, 2) })]),
      el("details", null, [el("summary", { text: "Summary the model had read" + (step.read_before ? " (" + step.read_before.text + ")" : "") }), el("pre", { text: step.read ? JSON.stringify(step.read, null, 2) : "No summary had been read before this call." })])
    ];
    detail.replaceChildren.apply(detail, nodes.filter(Boolean));
    // The step in the address, to link to it; a page shown in a sandboxed frame (the device app's) has no address to change.
    try { history.replaceState(null, "", "#step-" + (index + 1)); } catch (e) { /* about:srcdoc */ }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var key = event.key;
    var next = null;
    if (key === "ArrowDown" || key === "ArrowRight" || key === "j") next = current + 1;
    else if (key === "ArrowUp" || key === "ArrowLeft" || key === "k") next = current - 1;
    else if (key === "Home") next = 0;
    else if (key === "End") next = steps.length - 1;
    if (next === null) return;
    event.preventDefault();
    show(Math.max(0, Math.min(steps.length - 1, next)), true);
  });

  if (steps.length === 0) {
    detail.appendChild(el("p", { text: "This trace has no calls yet." }));
    return;
  }
  var fromHash = /^#step-(\\d+)$/.exec(location.hash);
  var first = fromHash ? Number(fromHash[1]) - 1 : steps.findIndex(function (s) { return !s.ok; });
  show(first >= 0 && first < steps.length ? first : 0, true);
})();
</script>
</body>
</html>
`;
