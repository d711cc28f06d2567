/**
 * A value that must never be printed: an API key. It reveals itself only when asked by name, so a
 * configuration object that is logged, serialised or inspected shows `[secret]` instead.
 */
const HIDDEN = '[secret]';

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The value, for the one place that sends it (the SDK client). */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return HIDDEN;
  }

  toJSON(): string {
    return HIDDEN;
  }

  /** util.inspect (console.log, pino's fallbacks) asks for this symbol; the domain imports nothing for it. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return HIDDEN;
  }
}
