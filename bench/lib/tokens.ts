/**
 * Token counts with real tokenizers that ship their vocabulary inside the npm package
 * (gpt-tokenizer: no download at run time). o200k_base is the GPT-4o family's encoding,
 * cl100k_base the GPT-4 / GPT-3.5 one; Claude's tokenizer is not published, so these two
 * stand in as a same-yardstick measure for every format compared.
 */
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';

export interface Size {
  readonly bytes: number;
  readonly chars: number;
  readonly tokens_o200k: number;
  readonly tokens_cl100k: number;
}

export function measure(text: string): Size {
  return {
    bytes: Buffer.byteLength(text, 'utf8'),
    chars: text.length,
    tokens_o200k: encodeO200k(text).length,
    tokens_cl100k: encodeCl100k(text).length,
  };
}

export function addSizes(a: Size, b: Size): Size {
  return {
    bytes: a.bytes + b.bytes,
    chars: a.chars + b.chars,
    tokens_o200k: a.tokens_o200k + b.tokens_o200k,
    tokens_cl100k: a.tokens_cl100k + b.tokens_cl100k,
  };
}
