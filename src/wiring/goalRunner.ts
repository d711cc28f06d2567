/**
 * The goal runner the configuration asks for, or null when no model is configured (a `{goal}` task
 * is then refused: docs/reference/contract.md, "Goal tasks"). The container calls this once at start.
 */
import { AgentLoop } from '../application/agent/AgentLoop.js';
import type { ModelPort, ModelRequest, ModelTurn } from '../application/agent/ModelPort.js';
import type { GoalRunner } from '../application/tasks/GoalRunner.js';
import type { ModelConfig } from '../domain/modelEndpoint.js';
import type { Clock, Logger } from '../domain/ports.js';

export interface GoalRunnerDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Tests only: no SDK retries, so a scripted 429 is seen at once. */
  readonly maxRetries?: number;
}

export function createModel(model: ModelConfig, deps: Pick<GoalRunnerDeps, 'logger' | 'maxRetries'>): ModelPort {
  const options = {
    model: model.model,
    baseUrl: model.baseUrl,
    apiKey: model.apiKey.reveal(),
    logger: deps.logger,
    ...(deps.maxRetries === undefined ? {} : { maxRetries: deps.maxRetries }),
  };
  return new LazyModel(
    model.provider === 'anthropic' ? `anthropic:${model.model}` : `openai:${model.model}`,
    async () =>
      model.provider === 'anthropic'
        ? new (await import('../infrastructure/model/AnthropicModel.js')).AnthropicModel(options)
        : new (await import('../infrastructure/model/OpenAiModel.js')).OpenAiModel(options),
  );
}

/**
 * The model's SDK is loaded on the first goal, not at start-up: the two SDKs are about 1,700
 * modules, which the server otherwise parses before it can answer `tools/list`.
 */
class LazyModel implements ModelPort {
  private adapter: Promise<ModelPort> | undefined;

  constructor(
    readonly label: string,
    private readonly load: () => Promise<ModelPort>,
  ) {}

  async next(request: ModelRequest): Promise<ModelTurn> {
    this.adapter ??= this.load();
    return (await this.adapter).next(request);
  }
}

/** The limits come with each run, from the task manager's configuration. */
export function createGoalRunner(
  config: { readonly model: ModelConfig | null },
  deps: GoalRunnerDeps,
): GoalRunner | null {
  if (config.model === null) return null;
  // The variable's name, never its value.
  deps.logger.info('goal tasks use a model', {
    provider: config.model.provider,
    model: config.model.model,
    base_url: config.model.baseUrl,
    key_from: config.model.apiKeyVariable,
  });
  return new AgentLoop({ model: createModel(config.model, deps), clock: deps.clock, logger: deps.logger });
}
