import type { Logger } from '../../../src/domain/ports.js';

/** A logger that drops everything, for tests that do not look at the log (RecordingLogger does). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
