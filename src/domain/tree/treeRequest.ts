/**
 * ui_get_tree's arguments beyond the flags, and the rules between them: a part of the screen
 * (within, mode) is never a diff's base nor sent with the raw XML, and raw_offset pages the raw XML.
 */
import { HarnessError } from '../errors.js';
import type { ActionTarget } from '../refs/refTarget.js';

/** `since`: the only value is "last"; absent or null is the whole screen. */
export function parseSinceLast(raw: unknown): 'last' | undefined {
  if (raw === undefined || raw === null || raw === 'last') return raw ?? undefined;
  throw new HarnessError(
    'INVALID_ARGUMENT',
    'Invalid since: the only value is "last" (a diff against the last screen read). Leave it out for the whole screen.',
  );
}

/** `mode`: the only value is "text"; absent or null is the whole summary. */
export function parseTextMode(raw: unknown): 'text' | undefined {
  if (raw === undefined || raw === null || raw === 'text') return raw ?? undefined;
  throw new HarnessError(
    'INVALID_ARGUMENT',
    'Invalid mode: the only value is "text" (the screen\'s texts only). Leave it out for the whole summary.',
  );
}

/** The arguments, each parsed on its own (include_raw as sent: absent differs from false). */
export interface TreeArguments {
  readonly includeRaw: boolean | undefined;
  readonly rawOffset: number | undefined;
  readonly since: 'last' | undefined;
  readonly within: ActionTarget | undefined;
  readonly mode: 'text' | undefined;
}

/** What the read is asked for, once the arguments agree. */
export interface TreeAsk {
  readonly includeRaw: boolean;
  readonly rawOffset?: number;
  readonly sinceLast?: true;
  readonly within?: ActionTarget;
  readonly textOnly?: true;
}

/** Throws HarnessError('INVALID_ARGUMENT') for arguments that contradict each other. */
export function treeAsk(args: TreeArguments): TreeAsk {
  // raw_offset asks for a part of the raw XML, so it implies include_raw; include_raw: false with it is a contradiction.
  if (args.rawOffset !== undefined && args.includeRaw === false) {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      'Invalid raw_offset with include_raw: false: raw_offset pages the raw XML. Send include_raw: true, or leave raw_offset out.',
    );
  }
  const includeRaw = args.rawOffset !== undefined || args.includeRaw === true;
  const part = args.within !== undefined || args.mode !== undefined;
  if (args.since !== undefined && part) {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      'Invalid since with within or mode: a diff is of the whole screen. Send since alone, or within/mode without it.',
    );
  }
  if (includeRaw && part) {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      "Invalid include_raw with within or mode: the raw XML is the whole screen's. Send one or the other.",
    );
  }
  return {
    includeRaw,
    ...(args.rawOffset === undefined ? {} : { rawOffset: args.rawOffset }),
    ...(args.since === undefined ? {} : { sinceLast: true as const }),
    ...(args.within === undefined ? {} : { within: args.within }),
    ...(args.mode === undefined ? {} : { textOnly: true as const }),
  };
}
