/**
 * The task's record (steps' notes, the summary) is shown to whoever reads the task, and logged; a
 * goal such as "sign in with password hunter2" makes the model type a secret and then, often, say
 * it ("I typed hunter2 into the password field"). So every text the model typed during the run is
 * cut out of what the loop records. Only verbatim occurrences: a paraphrase cannot be recognised,
 * which is why the record keeps the model's words short (notes bounded) and the typed text itself
 * never enters it.
 */

/** Argument names whose value is text sent to the device (ui_type_text's `text`). */
const TYPED_ARGUMENTS: readonly string[] = ['text'];
/**
 * Shorter typed values are not searched for: cutting every "a" or "to" out of a note would leave
 * nothing readable, and a one- or two-character value says little. The value itself is never recorded.
 */
const MIN_REDACTED_CHARS = 3;

export class TypedTexts {
  private readonly texts = new Set<string>();

  /** Remembers the typed values of one call's arguments. */
  note(input: Readonly<Record<string, unknown>> | null): void {
    if (!input) return;
    for (const key of TYPED_ARGUMENTS) {
      const value = input[key];
      if (typeof value === 'string' && value.length >= MIN_REDACTED_CHARS) this.texts.add(value);
    }
  }

  /** `text` without any typed value, each replaced by a marker; then cut to `max` characters. */
  redact(text: string, max: number): string {
    let out = text;
    // Longest first, so a typed text that contains another is cut whole.
    for (const typed of [...this.texts].sort((a, b) => b.length - a.length)) {
      out = out.split(typed).join('[typed text]');
    }
    out = out.replace(/\s+/g, ' ').trim();
    return out.length > max ? `${out.slice(0, max - 1)}…` : out;
  }
}
