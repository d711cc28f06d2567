/** What the server and its OCR worker process say to each other over IPC (advanced serialization). */
import type { Rect } from '../../domain/tree/uiNode.js';
import type { OcrLine } from '../../domain/visual/visualEntries.js';

export interface OcrRequest {
  readonly id: number;
  readonly png: Uint8Array;
  readonly regions: readonly Rect[];
}

export interface OcrResponse {
  readonly id: number;
  readonly lines: readonly OcrLine[];
  /** The worker's resident memory after the read (the bench reports its peak). */
  readonly peakRssBytes?: number;
  readonly error?: string;
}
