/**
 * The compact text form of an envelope, for a model reading a shell's output: one line a fact,
 * one line a summary entry (`e12 button "Apps"`), no JSON punctuation it would pay for. `--json`
 * prints the envelope as the MCP tool returns it instead.
 */
type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalar(value: Json): string {
  return typeof value === 'string'
    ? /^[\w.:/@-]+$/.test(value)
      ? value
      : JSON.stringify(value)
    : JSON.stringify(value);
}

/** A summary entry: its ref first, then role and label, then the rest as key=value. */
function entryLine(entry: Record<string, Json>): string {
  const { ref, role, label, ...rest } = entry;
  const head = [ref, role, label === undefined ? undefined : JSON.stringify(label)].filter(
    (part) => part !== undefined,
  );
  const tail = Object.entries(rest).map(
    ([key, value]) =>
      `${key}=${isRecord(value) || Array.isArray(value) ? JSON.stringify(value) : scalar(value as Json)}`,
  );
  return [...head.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))), ...tail].join(' ');
}

function lines(value: Json, indent: string, out: string[]): void {
  if (!isRecord(value)) {
    out.push(`${indent}${scalar(value)}`);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (item === null || item === undefined) continue;
    if (Array.isArray(item) && item.every(isRecord) && item.length > 0) {
      out.push(`${indent}${key}:`);
      for (const entry of item) out.push(`${indent}  ${entryLine(entry as Record<string, Json>)}`);
    } else if (isRecord(item)) {
      out.push(`${indent}${key}:`);
      lines(item, `${indent}  `, out);
    } else if (Array.isArray(item)) {
      out.push(`${indent}${key}: ${item.map((part) => scalar(part)).join(', ')}`);
    } else {
      out.push(`${indent}${key}: ${scalar(item)}`);
    }
  }
}

export function renderEnvelope(envelope: unknown): string {
  if (!isRecord(envelope)) return JSON.stringify(envelope);
  const out: string[] = [];
  const error = envelope.error;
  if (envelope.ok === true) out.push('ok');
  else if (isRecord(error)) {
    out.push(`error ${scalar(error.code ?? 'INTERNAL_ERROR')}: ${String(error.message ?? '')}`);
    const { code: _code, message: _message, ...details } = error;
    lines(details, '  ', out);
  }
  if (isRecord(envelope.data)) lines(envelope.data, '', out);
  if (isRecord(envelope.evidence)) out.push(`evidence: ${scalar(envelope.evidence.artifact_id ?? null)}`);
  return `${out.join('\n')}\n`;
}
