/**
 * The goal runner the configuration asks for, or null when no model is configured (a `{goal}` task
 * is then refused: docs/reference/contract.md, "Goal tasks"). The container calls this once at start.
 */
import { AgentLoop } from '../application/agent/AgentLoop.js';
import type { ModelPort } from '../application/agent/ModelPort.js';
import type { GoalRunner } from '../application/tasks/GoalRunner.js';
import type { ModelConfig } from '../domain/modelEndpoint.js';
import type { Clock, Logger } from '../domain/ports.js';
import { AnthropicModel } from '../infrastructure/model/AnthropicModel.js';
import { OpenAiModel } from '../infrastructure/model/OpenAiModel.js';

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
  return model.provider === 'anthropic' ? new AnthropicModel(options) : new OpenAiModel(options);
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
