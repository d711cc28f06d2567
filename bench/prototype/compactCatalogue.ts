/**
 * A prototype of a smaller tools/list, applied to the catalogue the server really sends, to measure
 * what each change would save. Tool names, input fields and descriptions for the model stay as they are.
 */
type Json = Record<string, unknown>;

export interface CatalogueStep {
  readonly id: string;
  readonly description: string;
  apply(tool: Json): Json;
}

export const CATALOGUE_STEPS: readonly CatalogueStep[] = [
  {
    id: 'output-schema-minimal',
    description: 'outputSchema reduced to `{type: object, required: [ok, operation_id, tool, data, evidence, error]}` (property shapes are in the contract and every answer)',
    apply: (t) => (t['outputSchema'] ? { ...t, outputSchema: { type: 'object', required: ['ok', 'operation_id', 'tool', 'data', 'evidence', 'error'] } } : t),
  },
  {
    id: 'annotations-no-defaults',
    description: 'annotations without the duplicated `title` and without hints equal to their defaults for that tool (keep readOnlyHint on observers, openWorldHint:false everywhere)',
    apply: (t) => {
      const a = (t['annotations'] ?? {}) as Json;
      const out: Json = { openWorldHint: a['openWorldHint'] };
      if (a['readOnlyHint'] === true) out['readOnlyHint'] = true;
      if (a['destructiveHint'] === true && a['readOnlyHint'] !== true) out['destructiveHint'] = true;
      return { ...t, annotations: out };
    },
  },
];

export function compactCatalogue(result: { tools: Json[] }, upTo = CATALOGUE_STEPS.length): { tools: Json[] } {
  let tools = JSON.parse(JSON.stringify(result.tools)) as Json[];
  for (const step of CATALOGUE_STEPS.slice(0, upTo)) tools = tools.map((t) => step.apply(t));
  return { tools };
}
