/**
 * An OpenAI-compatible chat completions endpoint (`POST {base}/chat/completions`) behind the
 * ModelPort, through the official SDK: OpenAI itself, or a local server that speaks the same
 * (vLLM, Ollama, LM Studio, llama.cpp). Tool calls are the message's `tool_calls`, with arguments
 * as a JSON string; each result goes back as a `role: "tool"` message naming its `tool_call_id`.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions/completions';
import type {
  ModelMessage,
  ModelPort,
  ModelRequest,
  ModelStop,
  ModelToolCall,
  ModelTurn,
} from '../../application/agent/ModelPort.js';
import { ModelError } from '../../application/agent/ModelPort.js';
import { toModelError } from './modelErrors.js';
import { commonClientOptions, type ModelAdapterOptions } from './sdkOptions.js';

export class OpenAiModel implements ModelPort {
  readonly label: string;
  private readonly client: OpenAI;

  constructor(private readonly options: ModelAdapterOptions) {
    this.label = `openai:${options.model}`;
    // No organisation or project header (OPENAI_ORG_ID, OPENAI_PROJECT_ID) beside the key.
    this.client = new OpenAI({ ...commonClientOptions(options, 'openai sdk'), organization: null, project: null });
  }

  async next(request: ModelRequest): Promise<ModelTurn> {
    const tools: ChatCompletionTool[] = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema, type: 'object' } },
    }));
    let completion: ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(
        {
          model: this.options.model,
          messages: [{ role: 'system', content: request.system }, ...toMessages(request.messages)],
          tools,
        },
        { signal: request.signal },
      );
    } catch (error) {
      throw toModelError(
        error,
        { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError },
        this.options.apiKey,
        request.signal,
      );
    }
    return fromCompletion(completion);
  }
}

function toMessages(messages: readonly ModelMessage[]): ChatCompletionMessageParam[] {
  return messages.flatMap((message): ChatCompletionMessageParam[] => {
    switch (message.role) {
      case 'user':
        return [{ role: 'user', content: message.text }];
      case 'assistant':
        return [
          {
            role: 'assistant',
            content: message.text === '' ? null : message.text,
            ...(message.calls.length > 0
              ? {
                  tool_calls: message.calls.map((call) => ({
                    id: call.id,
                    type: 'function' as const,
                    function: { name: call.name, arguments: call.rawInput },
                  })),
                }
              : {}),
          },
        ];
      case 'tool_results':
        return message.results.map((result) => ({
          role: 'tool' as const,
          tool_call_id: result.callId,
          content: result.content,
        }));
    }
  });
}

function fromCompletion(completion: ChatCompletion): ModelTurn {
  const choice = Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  if (!choice?.message) {
    throw new ModelError(
      'bad_response',
      null,
      'The model endpoint answered no choice; is ANDROID_MCP_MODEL_BASE_URL an OpenAI-compatible chat completions endpoint?',
    );
  }
  const calls: ModelToolCall[] = (choice.message.tool_calls ?? []).map((call) =>
    call.type === 'function'
      ? {
          id: call.id,
          name: call.function.name,
          input: parseArguments(call.function.arguments),
          rawInput: call.function.arguments,
        }
      : { id: call.id, name: call.custom.name, input: null, rawInput: call.custom.input },
  );
  const refused = typeof choice.message.refusal === 'string' && choice.message.refusal !== '';
  const text = choice.message.content ?? (refused ? (choice.message.refusal ?? '') : '');
  return { text, calls, stop: refused ? 'refusal' : stopOf(choice.finish_reason) };
}

/** The arguments when they are one JSON object; models do send broken JSON, and the loop answers it. */
function parseArguments(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function stopOf(reason: string | null | undefined): ModelStop {
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}
