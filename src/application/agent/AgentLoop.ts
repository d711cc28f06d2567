/**
 * The bounded agent loop behind a goal task (docs/reference/contract.md, "Goal tasks: the agent loop"): it
 * sends the goal and the tools to a model, runs the calls the model asks for one at a time through
 * the task's `callTool`, feeds each envelope back (compact, bounded), and stops when the model
 * calls `finish`, when a limit is reached, when the task is cancelled, or when the model endpoint
 * fails. Every call is a recorded step; the record never holds an argument, so typed text never
 * reaches it (notes and summary have it cut out too: redaction.ts).
 *
 * Nothing keeps running once `run` resolves: a model request in flight is aborted through its
 * signal; a tool call in flight is awaited (it is bounded by the harness's own ceilings, and
 * leaving it running would let it act on the device after the task said it stopped).
 */
import type { Envelope } from '../../domain/envelope.js';
import type { Clock, Logger } from '../../domain/ports.js';
import { sanitizeMessage } from '../../domain/sanitize.js';
import type { GoalLimits, GoalOutcome, GoalRunner, GoalRunRequest, GoalStep } from '../tasks/GoalRunner.js';
import { compactEnvelope, MAX_TOOL_RESULT_CHARS, refusalEnvelope } from './compactEnvelope.js';
import { FINISH_TOOL, FINISH_TOOL_NAME, MAX_SUMMARY_CHARS, parseFinish } from './finishTool.js';
import {
  ModelError,
  type ModelMessage,
  type ModelPort,
  type ModelToolCall,
  type ModelToolResult,
  type ModelToolSpec,
  type ModelTurn,
} from './ModelPort.js';
import { TypedTexts } from './redaction.js';
import { systemPrompt } from './systemPrompt.js';

export interface AgentLoopOptions {
  readonly model: ModelPort;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Bound of one tool result as the model reads it. */
  readonly maxResultChars?: number;
}

const MAX_NOTE_CHARS = 200;
const MAX_LAST_WORDS_CHARS = 300;
const MAX_TOOL_NAME_CHARS = 64;
const REMINDER =
  `You ended your turn without calling ${FINISH_TOOL_NAME}. Call ${FINISH_TOOL_NAME} {"met": true|false, "summary": "…"} now, ` +
  'or go on with a tool.';

/** Why a run ended, before it is put in words. */
type Halt =
  | { readonly kind: 'finished'; readonly met: boolean; readonly summary: string }
  | { readonly kind: 'limit'; readonly limit: 'steps' | 'time' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'model_error'; readonly error: ModelError }
  | { readonly kind: 'unexpected'; readonly message: string }
  | { readonly kind: 'no_finish'; readonly refusal: boolean; readonly lastWords: string };

export class AgentLoop implements GoalRunner {
  constructor(private readonly options: AgentLoopOptions) {}

  async run(request: GoalRunRequest): Promise<GoalOutcome> {
    // The task manager's limits (its configuration), kept non-negative.
    const limits: GoalLimits = {
      maxSteps: Math.max(0, request.limits.maxSteps),
      maxDurationMs: Math.max(0, request.limits.maxDurationMs),
    };
    const run = new GoalRun(this.options, request, limits);
    return run.execute();
  }
}

/** The state of one run: its conversation, its steps, its stop signal and deadline. */
class GoalRun {
  private readonly steps: GoalStep[] = [];
  private readonly messages: ModelMessage[] = [];
  private readonly typed = new TypedTexts();
  private readonly stop = new AbortController();
  private readonly tools: readonly ModelToolSpec[];
  private readonly toolNames: ReadonlySet<string>;
  private readonly deadlineAt: number;
  private timedOut = false;

  constructor(
    private readonly options: AgentLoopOptions,
    private readonly request: GoalRunRequest,
    private readonly limits: GoalLimits,
  ) {
    // The loop's own finish replaces a harness tool of that name, should one ever exist.
    const harnessTools = request.tools.filter((tool) => tool.name !== FINISH_TOOL_NAME);
    this.tools = [...harnessTools, FINISH_TOOL];
    this.toolNames = new Set(harnessTools.map((tool) => tool.name));
    this.deadlineAt = options.clock.monotonicMs() + limits.maxDurationMs;
  }

  async execute(): Promise<GoalOutcome> {
    const { clock } = this.options;
    const onAbort = (): void => this.stop.abort();
    this.request.signal.addEventListener('abort', onAbort, { once: true });
    const timer = clock.setTimeout(() => {
      this.timedOut = true;
      this.stop.abort();
    }, this.limits.maxDurationMs);
    try {
      const halt = await this.loop();
      return this.outcome(halt);
    } finally {
      clock.clearTimeout(timer);
      this.request.signal.removeEventListener('abort', onAbort);
    }
  }

  private async loop(): Promise<Halt> {
    this.messages.push({ role: 'user', text: this.request.goal });
    const system = systemPrompt(this.limits);
    let reminded = false;
    for (;;) {
      const before = this.halted();
      if (before) return before;
      let turn: ModelTurn;
      try {
        turn = await this.options.model.next({
          system,
          tools: this.tools,
          messages: this.messages,
          signal: this.stop.signal,
        });
      } catch (error) {
        const halt = this.halted();
        if (halt) return halt;
        if (error instanceof ModelError) return { kind: 'model_error', error };
        return { kind: 'unexpected', message: `the model adapter failed: ${sanitizeMessage(String(error))}` };
      }
      // An answer that arrives after the abort is not acted on.
      const after = this.halted();
      if (after) return after;
      this.messages.push({ role: 'assistant', text: turn.text, calls: turn.calls });
      for (const call of turn.calls) this.typed.note(call.input);
      this.options.logger.debug('goal loop: model turn', {
        stop: turn.stop,
        calls: turn.calls.length,
        steps: this.steps.length,
      });
      if (turn.calls.length === 0) {
        if (reminded || turn.stop === 'refusal') {
          return {
            kind: 'no_finish',
            refusal: turn.stop === 'refusal',
            lastWords: this.typed.redact(turn.text, MAX_LAST_WORDS_CHARS),
          };
        }
        reminded = true;
        this.messages.push({ role: 'user', text: REMINDER });
        continue;
      }
      reminded = false;
      const halt = await this.runCalls(turn);
      if (halt) return halt;
    }
  }

  /** The calls of one turn, in order; a halt, or undefined when the model is to read the results. */
  private async runCalls(turn: ModelTurn): Promise<Halt | undefined> {
    const results: ModelToolResult[] = [];
    let note: string | undefined = turn.text.trim() === '' ? undefined : this.typed.redact(turn.text, MAX_NOTE_CHARS);
    for (const call of turn.calls) {
      if (call.name === FINISH_TOOL_NAME && turn.calls.length === 1) {
        const finish = parseFinish(call.input);
        if (typeof finish !== 'string') return { kind: 'finished', met: finish.met, summary: finish.summary };
      }
      if (this.steps.length >= this.limits.maxSteps) return { kind: 'limit', limit: 'steps' };
      const halt = this.halted();
      if (halt) return halt;
      let envelope: Envelope;
      try {
        envelope = await this.answer(call, turn.calls.length);
      } catch (error) {
        // callTool answers envelopes, failures included; a throw means the task's UI session is broken: stop acting on it.
        this.record({ tool: call.name, ok: false, error_code: 'INTERNAL_ERROR' }, note);
        return {
          kind: 'unexpected',
          message: `the harness could not run ${boundName(call.name)}: ${sanitizeMessage(String(error))}`,
        };
      }
      this.record(
        {
          tool: call.name,
          ok: envelope.ok,
          ...(envelope.error ? { error_code: envelope.error.code } : {}),
          ...(envelope.evidence ? { artifact_id: envelope.evidence.artifact_id } : {}),
        },
        note,
      );
      note = undefined;
      results.push({
        callId: call.id,
        content: compactEnvelope(envelope, this.options.maxResultChars ?? MAX_TOOL_RESULT_CHARS),
        isError: !envelope.ok,
      });
    }
    this.messages.push({ role: 'tool_results', results });
    return undefined;
  }

  /** The envelope of one call: the harness's for its own tools, the loop's refusal for anything else. */
  private answer(call: ModelToolCall, callsInTurn: number): Promise<Envelope> {
    const name = boundName(call.name);
    if (call.name === FINISH_TOOL_NAME) {
      const message =
        callsInTurn > 1
          ? `${FINISH_TOOL_NAME} must be called alone, in a turn of its own, once you have seen the results of your other calls.`
          : (parseFinish(call.input) as string);
      return Promise.resolve(refusalEnvelope(name, 'INVALID_ARGUMENT', message));
    }
    if (!this.toolNames.has(call.name)) {
      const known = [...this.toolNames, FINISH_TOOL_NAME].join(', ');
      return Promise.resolve(
        refusalEnvelope(name, 'INVALID_ARGUMENT', `There is no tool named '${name}'. The tools are: ${known}.`),
      );
    }
    if (call.input === null) {
      return Promise.resolve(
        refusalEnvelope(
          name,
          'INVALID_ARGUMENT',
          `The arguments of ${name} must be one JSON object, as its input schema says; nothing was done.`,
        ),
      );
    }
    return this.request.callTool(call.name, call.input);
  }

  private record(step: Omit<GoalStep, 'n' | 'note'>, note: string | undefined): void {
    const recorded: GoalStep = {
      n: this.steps.length + 1,
      ...step,
      tool: boundName(step.tool),
      ...(note ? { note } : {}),
    };
    this.steps.push(recorded);
    try {
      this.request.onStep(recorded);
    } catch (error) {
      this.options.logger.warn('goal loop: the step listener failed', { cause: sanitizeMessage(String(error)) });
    }
  }

  /** Cancel first (the client asked), then the time limit. */
  private halted(): Halt | undefined {
    if (this.request.signal.aborted) return { kind: 'cancelled' };
    if (this.timedOut || this.options.clock.monotonicMs() >= this.deadlineAt) return { kind: 'limit', limit: 'time' };
    return undefined;
  }

  private outcome(halt: Halt): GoalOutcome {
    const steps = [...this.steps];
    const failed = (summary: string, limit?: 'steps' | 'time'): GoalOutcome => ({
      outcome: 'failed',
      summary,
      steps,
      ...(limit ? { limit } : {}),
    });
    this.options.logger.info('goal loop ended', {
      model: this.options.model.label,
      halt: halt.kind,
      steps: steps.length,
      ...(halt.kind === 'finished' ? { met: halt.met } : {}),
      ...(halt.kind === 'model_error' ? { model_error: halt.error.kind, status: halt.error.status } : {}),
    });
    switch (halt.kind) {
      case 'finished':
        return {
          outcome: halt.met ? 'passed' : 'failed',
          summary: this.typed.redact(halt.summary, MAX_SUMMARY_CHARS),
          steps,
        };
      case 'limit':
        return halt.limit === 'steps'
          ? failed(
              `The step limit (${this.limits.maxSteps} tool calls) was reached before the model called ${FINISH_TOOL_NAME}.`,
              'steps',
            )
          : failed(
              `The time limit (${Math.round(this.limits.maxDurationMs / 1000)} s) ran out before the model called ${FINISH_TOOL_NAME}.`,
              'time',
            );
      case 'cancelled':
        return failed('The task was cancelled; the loop stopped and nothing it started is still running.');
      case 'model_error': {
        const status = halt.error.status === null ? '' : `, HTTP ${halt.error.status}`;
        return failed(`The model endpoint failed (${halt.error.kind}${status}): ${halt.error.message}`);
      }
      case 'unexpected':
        return failed(`The loop stopped: ${halt.message}`);
      case 'no_finish': {
        const words = halt.lastWords === '' ? '' : ` Its last words: "${halt.lastWords}"`;
        return halt.refusal
          ? failed(`The model refused to go on (a safety stop) without calling ${FINISH_TOOL_NAME}.${words}`)
          : failed(`The model ended its turn twice without calling ${FINISH_TOOL_NAME}.${words}`);
      }
    }
  }
}

function boundName(name: string): string {
  return name.length > MAX_TOOL_NAME_CHARS ? `${name.slice(0, MAX_TOOL_NAME_CHARS)}…` : name;
}
