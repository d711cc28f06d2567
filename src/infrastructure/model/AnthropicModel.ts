/**
 * The Anthropic Messages API (`POST /v1/messages`) behind the ModelPort, through the official SDK.
 * Tool calls are `tool_use` content blocks; their results go back as `tool_result` blocks, first in
 * the next user message, one per `tool_use` id (the API refuses anything else).
 */
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages/messages';
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

/** Required by the API; enough for a turn of reasoning and a few tool calls. */
const MAX_TOKENS = 4096;
/** The API refuses an empty text block; an assistant turn that said nothing is replayed as this. */
const EMPTY_TURN = '(no text)';

export class AnthropicModel implements ModelPort {
  readonly label: string;
  private readonly client: Anthropic;

  constructor(private readonly options: ModelAdapterOptions) {
    this.label = `anthropic:${options.model}`;
    // No auth token or profile (ANTHROPIC_AUTH_TOKEN, ANTHROPIC_PROFILE) and no tracing beside the key.
    this.client = new Anthropic({
      ...commonClientOptions(options, 'anthropic sdk'),
      authToken: null,
      openTelemetry: false,
    });
  }

  async next(request: ModelRequest): Promise<ModelTurn> {
    const tools: Tool[] = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: { ...tool.inputSchema, type: 'object' },
    }));
    let message: Anthropic.Message;
    try {
      message = await this.client.messages.create(
        {
          model: this.options.model,
          max_tokens: MAX_TOKENS,
          system: request.system,
          tools,
          messages: toMessages(request.messages),
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
    return fromMessage(message);
  }
}

function toMessages(messages: readonly ModelMessage[]): MessageParam[] {
  return messages.map((message): MessageParam => {
    switch (message.role) {
      case 'user':
        return { role: 'user', content: message.text };
      case 'assistant': {
        const text = message.text.trim() === '' ? [] : [{ type: 'text' as const, text: message.text }];
        const calls = message.calls.map((call) => ({
          type: 'tool_use' as const,
          id: call.id,
          name: call.name,
          input: call.input ?? {},
        }));
        const content = [...text, ...calls];
        return { role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: EMPTY_TURN }] };
      }
      case 'tool_results':
        return {
          role: 'user',
          content: message.results.map((result) => ({
            type: 'tool_result' as const,
            tool_use_id: result.callId,
            content: result.content,
            is_error: result.isError,
          })),
        };
    }
  });
}

function fromMessage(message: Anthropic.Message): ModelTurn {
  if (!Array.isArray(message.content))
    throw new ModelError(
      'bad_response',
      null,
      'The model endpoint answered a message without content; is ANDROID_MCP_MODEL_BASE_URL an Anthropic Messages API?',
    );
  const texts: string[] = [];
  const calls: ModelToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use') {
      const input =
        block.input !== null && typeof block.input === 'object' && !Array.isArray(block.input)
          ? (block.input as Record<string, unknown>)
          : null;
      calls.push({ id: block.id, name: block.name, input, rawInput: JSON.stringify(block.input ?? null) });
    }
  }
  return { text: texts.join('\n'), calls, stop: stopOf(message.stop_reason) };
}

function stopOf(reason: string | null): ModelStop {
  switch (reason) {
    case 'tool_use':
      return 'tool_use';
    case 'end_turn':
    case 'stop_sequence':
      return 'end_turn';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'refusal':
      return 'refusal';
    default:
      return 'other';
  }
}
