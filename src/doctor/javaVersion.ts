/**
 * Reads the Java major version from what `java -version` prints (on stderr). Vendors disagree
 * on the format: Oracle/OpenJDK 8 say `java version "1.8.0_381"`, modern OpenJDK says
 * `openjdk version "17.0.15" 2025-04-15` or just `"21"`, early-access builds `"22-ea"`,
 * IBM Semeru `"17.0.8.1"`, and `java --version` drops the quotes (`java 21.0.2 2024-01-16 LTS`).
 */
export interface JavaVersion {
  readonly major: number;
  /** The version string as printed, e.g. `1.8.0_381` or `21`. */
  readonly raw: string;
}

const QUOTED = /\bversion\s+"([^"]+)"/i;
const UNQUOTED = /^\s*(?:java|openjdk)\s+(\d[\w.+-]*)/im;

export function parseJavaVersion(output: string): JavaVersion | null {
  const raw = QUOTED.exec(output)?.[1] ?? UNQUOTED.exec(output)?.[1];
  if (!raw) return null;
  const parts = /^(\d+)(?:\.(\d+))?/.exec(raw);
  if (!parts?.[1]) return null;
  const first = Number(parts[1]);
  // Before Java 9 the major version was the second number: 1.8.0 is Java 8.
  const major = first === 1 && parts[2] !== undefined ? Number(parts[2]) : first;
  if (!Number.isInteger(major) || major <= 0) return null;
  return { major, raw };
}
