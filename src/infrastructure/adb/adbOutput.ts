const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Keeps `<?xml …` (or `<hierarchy`) through the last `</hierarchy>`; null when there is no hierarchy. */
export function trimDump(output: string): string | null {
  const end = output.lastIndexOf('</hierarchy>');
  if (end < 0) return null;
  let start = output.indexOf('<?xml');
  if (start < 0 || start > end) start = output.indexOf('<hierarchy');
  if (start < 0 || start > end) return null;
  return output.slice(start, end + '</hierarchy>'.length);
}

/** Cuts any text a device prints before the PNG (multi-display warnings); null when there is no PNG. */
export function extractPng(output: Buffer): Buffer | null {
  const start = output.indexOf(PNG_SIGNATURE);
  if (start < 0) return null;
  return start === 0 ? output : output.subarray(start);
}
