/**
 * The trace of a flow run: the flow CLI starts the server itself, so it names the server's trace
 * folder (ANDROID_MCP_TRACE_NAME) and can put it in its report, and it knows the server's evidence
 * directory, so it can name each evidence file for a person (answers name only the file's id):
 * relative to the working directory when the artifacts are below it.
 */
import path from 'node:path';
import os from 'node:os';
import { loadConfig } from '../config.js';
import { TRACES_FOLDER, traceFolderName } from '../infrastructure/trace/FileTraceStore.js';

const DEFAULT_EVIDENCE_PREFIX = 'artifacts/';

export interface FlowTrace {
  /** The server's environment, with the trace's name in it. */
  readonly env: NodeJS.ProcessEnv;
  /** Where the trace will be (e.g. `artifacts/traces/20261207-004512-123-flow-4242`); null when traces are off. */
  readonly path: string | null;
  /** How a person reaches the server's evidence directory, ending in `/` (`artifacts/`, `~/evidence/`, or absolute). */
  readonly evidencePrefix: string;
}

export function flowTraceFor(env: NodeJS.ProcessEnv, cwd: string, now: Date = new Date()): FlowTrace {
  // The server reads the same environment: warnings about it are the server's to give.
  let config;
  try {
    config = loadConfig(env, () => undefined, cwd, os.homedir());
  } catch {
    // A configuration the server refuses: it says why itself, and writes no trace nor evidence.
    return { env, path: null, evidencePrefix: DEFAULT_EVIDENCE_PREFIX };
  }
  const evidencePrefix = config.artifactsPathPrefix.split(path.sep).join('/');
  if (config.trace?.enabled !== true) return { env, path: null, evidencePrefix };
  const name = traceFolderName(now, 'flow', String(process.pid));
  return {
    env: { ...env, ANDROID_MCP_TRACE_NAME: name },
    path: `${evidencePrefix}${TRACES_FOLDER}/${name}`,
    evidencePrefix,
  };
}
