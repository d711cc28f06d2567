/**
 * Runs a reference flow the way a model would drive the harness: app_open → ui_get_tree →
 * ui_session_open → the steps (with the session id injected), stopping at the first failure →
 * ui_session_close (always, once a session is open) → ui_get_tree (always: the report shows
 * where the flow ended). Talks to the server only through `FlowClient`, so the same code runs
 * over real stdio (flow CLI, demo) and against a fake in unit tests.
 */
import type { FlowFile, FlowStep } from './flowFile.js';
import { redactSecrets, withInputs } from './flowInputs.js';
import { ScreenBook } from './screenBook.js';
import { SCREEN_MISMATCH, screenMismatch } from './screenCheck.js';
import { repairFor, type FlowRepair } from './repair/repairStep.js';

/** The envelope (docs/reference/contract.md, "The envelope"), as read back from a tool result. */
export interface FlowEnvelope {
  readonly ok: boolean;
  readonly operation_id?: string;
  readonly tool?: string;
  readonly data?: Record<string, unknown>;
  readonly evidence?: { readonly artifact_id: string } | null;
  readonly error?: { readonly code: string; readonly message: string } | null;
}

export interface FlowClient {
  /** One tools/call; resolves with the envelope (protocol failures become an envelope with code PROTOCOL_ERROR). */
  callTool(name: string, args: Record<string, unknown>): Promise<{ envelope: FlowEnvelope; isError: boolean }>;
}

export type FlowPhase = 'setup' | 'step' | 'repair' | 'teardown';

export interface FlowCall {
  readonly phase: FlowPhase;
  /** 0-based index into the file's steps, for phase 'step'. */
  readonly step_index: number | null;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly ok: boolean;
  readonly duration_ms: number;
  readonly envelope: FlowEnvelope;
  /**
   * Why the runner failed a call the server answered, or what it adds to the server's failure: the
   * screen after it is not the one expected (SCREEN_MISMATCH), or the best candidate for a selector
   * that matched nothing. Absent when the envelope says it all.
   */
  readonly problem?: { readonly code: string; readonly message: string };
  /** A failed step the runner repaired: the call after it ran the step again with the new selector. */
  readonly repaired?: true;
}

export interface FlowReport {
  readonly flow: string;
  readonly package_name: string;
  readonly passed: boolean;
  readonly started_at: string;
  readonly duration_ms: number;
  /** Steps of the file that ran, and how many it has. */
  readonly steps_run: number;
  readonly steps_total: number;
  readonly calls: readonly FlowCall[];
  readonly first_error: {
    readonly tool: string;
    readonly phase: FlowPhase;
    readonly step_index: number | null;
    readonly code: string;
    readonly message: string;
  } | null;
  /** The evidence files in call order, as `evidencePath` names them (the flow CLI: their paths; a task: their ids). */
  readonly evidence: readonly string[];
  /** The run's trace folder (as evidence paths are named), for `trace view`; null when traces are off. Set by the flow CLI. */
  readonly trace?: string | null;
  /** Each step repaired (run with repair on): old selector → new, the score and the evidence. */
  readonly repairs?: readonly FlowRepair[];
  /** With --repair and a repair made: the repaired flow and the repair report the flow CLI wrote. */
  readonly repaired_file?: string;
  readonly repair_report?: string;
}

export interface RunFlowOptions {
  /** Shown in the report (the file name). */
  readonly source: string;
  readonly now?: () => Date;
  readonly monotonicMs?: () => number;
  /**
   * Tasks: open the UI session on this device (serial or AVD name) first, so every call,
   * app_open and the trees included, carries its session_id and the device is held from the first
   * call to the last: ui_session_open {device} → app_open → ui_get_tree → the steps → ui_get_tree →
   * ui_session_close.
   */
  readonly device?: string;
  /** Once aborted no further call is made but the teardown (the flow is closed all the same). */
  readonly signal?: AbortSignal;
  /** After each step of the file: how many ran, of how many. */
  readonly onStep?: (stepsRun: number, stepsTotal: number) => void;
  /**
   * How the report names an evidence file for a person (an answer names only its id). The flow CLI,
   * which started the server and knows its evidence directory, gives the file's path; the default
   * is the id itself.
   */
  readonly evidencePath?: (artifactId: string) => string;
  /** The flow's input values by name (flowInputs.ts), already checked complete. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** Repair a step whose selector matches nothing when one candidate clears the threshold (repair/). */
  readonly repair?: boolean;
}

/** The report's code for a flow run without a value for one of its declared inputs. */
export const FLOW_INPUT_MISSING = 'FLOW_INPUT_MISSING';

/** Replaces the session id in recorded arguments: the id is a capability, not a fact worth keeping. */
const SESSION_PLACEHOLDER = '<session_id>';

export async function runFlow(flow: FlowFile, client: FlowClient, options: RunFlowOptions): Promise<FlowReport> {
  const now = options.now ?? (() => new Date());
  const mono = options.monotonicMs ?? (() => performance.now());
  const evidencePath = options.evidencePath ?? ((artifactId: string) => artifactId);
  const startedAt = now();
  const started = mono();
  const calls: FlowCall[] = [];
  const repairs: FlowRepair[] = [];
  const book = new ScreenBook();
  const inputs = options.inputs ?? {};
  // A secret's value is typed, and kept out of everything the run writes.
  const secrets = Object.entries(flow.inputs ?? {}).flatMap(([name, declared]) =>
    declared.secret === true && inputs[name] !== undefined ? [[name, inputs[name]] as const] : [],
  );
  let stepsRun = 0;

  // A caller that gives no value for a declared input (a REST task) is refused before any call:
  // a replay never types `${name}` as it is. The flow CLI refuses earlier, with exit code 2.
  const missing = Object.keys(flow.inputs ?? {}).filter((name) => inputs[name] === undefined);
  if (missing.length > 0) {
    return {
      flow: options.source,
      package_name: flow.package_name,
      passed: false,
      started_at: startedAt.toISOString(),
      duration_ms: 0,
      steps_run: 0,
      steps_total: flow.steps.length,
      calls: [],
      first_error: {
        tool: 'flow',
        phase: 'setup',
        step_index: null,
        code: FLOW_INPUT_MISSING,
        message: `The flow needs inputs it was not given: ${missing.join(', ')}. Nothing was started.`,
      },
      evidence: [],
    };
  }

  const call = async (
    phase: FlowPhase,
    stepIndex: number | null,
    tool: string,
    args: Record<string, unknown>,
    recorded = args,
  ) => {
    const t0 = mono();
    let envelope: FlowEnvelope;
    let isError: boolean;
    try {
      ({ envelope, isError } = await client.callTool(tool, args));
    } catch (error) {
      // A client that throws (server gone, broken pipe) still yields a failed call, never a crash.
      envelope = {
        ok: false,
        error: { code: 'CLIENT_ERROR', message: error instanceof Error ? error.message : String(error) },
      };
      isError = true;
    }
    const ok = envelope.ok === true && !isError;
    book.note(envelope.data);
    calls.push({
      phase,
      step_index: stepIndex,
      tool,
      arguments: recorded,
      ok,
      duration_ms: Math.round(mono() - t0),
      envelope: redactSecrets(envelope, secrets),
    });
    return { ok, envelope };
  };
  /** Marks the last call failed by the runner (or its failure explained further). */
  const fail = (problem: { code: string; message: string }): void => {
    const last = calls.pop();
    if (last) calls.push({ ...last, ok: false, problem: redactSecrets(problem, secrets) });
  };

  /** The step, run, repaired when asked and possible, and checked against the screen it expects. */
  const runStep = async (id: string, index: number, step: FlowStep): Promise<boolean> => {
    const args = withInputs(step.arguments, inputs);
    const result = await call(
      'step',
      index,
      step.tool,
      { ...args, session_id: id },
      { ...step.arguments, session_id: SESSION_PLACEHOLDER },
    );
    let envelope = result.envelope;
    if (!result.ok) {
      if (result.envelope.error?.code !== 'UI_ELEMENT_NOT_FOUND' || !step.element) return false;
      const failedAt = calls.length - 1;
      const outcome = await repairFor(step, args, {
        read: (more) => call('repair', index, 'ui_get_tree', { ...more, session_id: id }, { ...more, ...inFlow }),
        rerun: (selector) =>
          call(
            'step',
            index,
            step.tool,
            { ...args, selector, session_id: id },
            { ...step.arguments, selector, session_id: SESSION_PLACEHOLDER },
          ),
        repair: options.repair === true,
        stepNumber: index + 1,
      });
      if (outcome.kind !== 'repaired') {
        const failed = calls[failedAt];
        if (failed) {
          const error = failed.envelope.error;
          calls[failedAt] = {
            ...failed,
            problem: redactSecrets(
              {
                code: error?.code ?? 'UI_ELEMENT_NOT_FOUND',
                message: `${error?.message ?? ''} ${outcome.advice}`.trim(),
              },
              secrets,
            ),
          };
        }
        return false;
      }
      const failed = calls[failedAt];
      if (failed) calls[failedAt] = { ...failed, repaired: true };
      repairs.push(outcome.repair);
      if (!outcome.result.ok) return false;
      envelope = outcome.result.envelope;
    }
    if (step.expect) {
      const data = envelope.data ?? {};
      const foreground = typeof data.foreground_package === 'string' ? data.foreground_package : null;
      const mismatch = screenMismatch(step.expect, foreground, book.note(data));
      if (mismatch !== null) {
        fail({ code: SCREEN_MISMATCH, message: `step ${index + 1} (${step.tool}): ${mismatch}` });
        return false;
      }
    }
    return true;
  };

  let sessionId: string | null = null;
  const aborted = (): boolean => options.signal?.aborted === true;
  const openFlow = async (args: Record<string, unknown>): Promise<string | null> => {
    const session = await call('setup', null, 'ui_session_open', args);
    const id = session.envelope.data?.session_id;
    return session.ok && typeof id === 'string' ? id : null;
  };
  const runSteps = async (id: string): Promise<void> => {
    for (const [index, step] of flow.steps.entries()) {
      if (aborted()) return;
      stepsRun += 1;
      const passed = await runStep(id, index, step);
      options.onStep?.(stepsRun, flow.steps.length);
      if (!passed) return;
    }
  };
  const inFlow = { session_id: SESSION_PLACEHOLDER };
  const drive = async (): Promise<void> => {
    if (options.device !== undefined) {
      sessionId = await openFlow({ device: options.device });
      if (sessionId === null || aborted()) return;
      const id = sessionId;
      if (
        !(
          await call(
            'setup',
            null,
            'app_open',
            { package_name: flow.package_name, session_id: id },
            { package_name: flow.package_name, ...inFlow },
          )
        ).ok ||
        aborted()
      )
        return;
      if (!(await call('setup', null, 'ui_get_tree', { session_id: id }, inFlow)).ok) return;
      return runSteps(id);
    }
    if (!(await call('setup', null, 'app_open', { package_name: flow.package_name })).ok) return;
    if (!(await call('setup', null, 'ui_get_tree', {})).ok) return;
    sessionId = await openFlow({});
    if (sessionId !== null) await runSteps(sessionId);
  };

  try {
    await drive();
  } finally {
    if (options.device !== undefined) {
      // Where the flow ended, read inside it (a tree without session_id would read the default device), then closed.
      if (sessionId !== null) {
        await call('teardown', null, 'ui_get_tree', { session_id: sessionId }, inFlow);
        await call('teardown', null, 'ui_session_close', { session_id: sessionId }, inFlow);
      }
    } else {
      if (sessionId !== null) {
        await call('teardown', null, 'ui_session_close', { session_id: sessionId }, inFlow);
      }
      await call('teardown', null, 'ui_get_tree', {});
    }
  }
  return finish();

  function finish(): FlowReport {
    const failed = calls.find((c) => !c.ok && c.repaired !== true);
    return {
      flow: options.source,
      package_name: flow.package_name,
      passed: failed === undefined && stepsRun === flow.steps.length,
      started_at: startedAt.toISOString(),
      duration_ms: Math.round(mono() - started),
      steps_run: stepsRun,
      steps_total: flow.steps.length,
      calls,
      first_error: failed
        ? {
            tool: failed.tool,
            phase: failed.phase,
            step_index: failed.step_index,
            code: failed.problem?.code ?? failed.envelope.error?.code ?? 'UNKNOWN',
            message:
              failed.problem?.message ??
              failed.envelope.error?.message ??
              'the call failed without an error in its envelope',
          }
        : null,
      evidence: calls.flatMap((c) =>
        c.envelope.evidence?.artifact_id ? [evidencePath(c.envelope.evidence.artifact_id)] : [],
      ),
      ...(repairs.length > 0 ? { repairs } : {}),
    };
  }
}

/** A few words about what a successful call returned, for the human summary. */
function describe(callRecord: FlowCall): string {
  const data = callRecord.envelope.data ?? {};
  switch (callRecord.tool) {
    case 'app_open':
      return `foreground ${String(data.foreground_package ?? '?')}`;
    case 'ui_get_tree': {
      const actions = Array.isArray(data.actions) ? data.actions.length : '?';
      return `${String(data.foreground_package ?? '?')}, ${actions} actions offered`;
    }
    case 'ui_session_open':
      return `idle timeout ${String(data.idle_timeout_seconds ?? '?')} s`;
    case 'ui_session_close':
      return 'closed';
    case 'ui_tap':
      return data.element_label ? `tapped '${String(data.element_label)}'` : 'tapped (the element has no label)';
    case 'ui_type_text':
      return `${String(data.characters_sent ?? '?')} characters sent`;
    case 'ui_scroll':
      // moved: false is the end of the list, worth seeing in a report.
      return `scrolled ${String(data.direction ?? '')}${data.moved === false ? ' (nothing moved: at its end)' : ''}`;
    case 'device_back':
      return `back to ${String(data.back_to_package ?? data.foreground_package ?? '?')}`;
    case 'device_key':
      return `pressed ${String(data.key ?? '?')}, ${String(data.foreground_package ?? '?')} in front`;
    case 'ui_wait':
      return `${String(data.until ?? '?')} after ${String(data.waited_ms ?? '?')} ms`;
    default:
      return '';
  }
}

/** The readable summary printed to stderr. */
export function summarizeReport(report: FlowReport): string[] {
  const verdict = report.passed ? 'PASSED' : 'FAILED';
  const lines = [
    `flow ${report.flow} (${report.package_name}): ${verdict}, ${report.steps_run}/${report.steps_total} steps, ${report.calls.length} calls, ${(report.duration_ms / 1000).toFixed(1)} s`,
  ];
  for (const c of report.calls) {
    const label = c.phase === 'step' ? `step ${(c.step_index ?? 0) + 1} ${c.tool}` : c.tool;
    const target = c.arguments.selector === undefined ? '' : ` ${JSON.stringify(c.arguments.selector)}`;
    const detail = c.ok
      ? describe(c)
      : `${c.problem?.code ?? c.envelope.error?.code ?? 'ERROR'}: ${c.problem?.message ?? c.envelope.error?.message ?? ''}${c.repaired ? ' (repaired: see the next call)' : ''}`;
    // The id on each line; the files' paths once, in the evidence line below.
    const evidence = c.envelope.evidence?.artifact_id ? `  [${c.envelope.evidence.artifact_id}]` : '';
    lines.push(`  ${c.ok ? 'ok  ' : 'FAIL'} ${label}${target} — ${detail}${evidence}`);
  }
  if (report.evidence.length > 0) lines.push(`evidence (${report.evidence.length} PNG): ${report.evidence.join(', ')}`);
  if (report.first_error)
    lines.push(`first error: ${report.first_error.tool} → ${report.first_error.code}: ${report.first_error.message}`);
  for (const repair of report.repairs ?? [])
    lines.push(
      `repaired step ${repair.step}: ${JSON.stringify(repair.old_selector)} → ${JSON.stringify(repair.new_selector)} (score ${repair.score.toFixed(2)})`,
    );
  if (report.trace) lines.push(`trace: ${report.trace} (android-mcp-harness trace view ${report.trace})`);
  return lines;
}
