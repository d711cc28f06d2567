/**
 * The tool tables of README.md and docs/reference/contract.md, written from the tool declarations (name,
 * toolset, parameters with their descriptions, annotations, what the answer holds), the way
 * microsoft/playwright-mcp writes its README's tool list. Only the text between each block's
 * markers is this script's; everything around it is hand-written.
 *
 *   node --import tsx scripts/tool-docs.ts           checks (npm run lint): exit 1 on a difference
 *   node --import tsx scripts/tool-docs.ts --write   rewrites the blocks
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { TOOLSET_NAMES } from '../src/domain/toolsets.js';
import { toInputJsonSchema } from '../src/mcp/schemas.js';
import type { ToolAnnotations, ToolFacts } from '../src/mcp/ToolDefinition.js';
import { TOOL_DECLARATIONS } from '../src/mcp/tools/index.js';

interface JsonProperty {
  readonly type?: string;
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
}

/** One block: a file, the name in its markers, and what goes between them. */
export interface Block {
  readonly file: string;
  readonly marker: string;
  readonly render: (tools: readonly ToolFacts[]) => string;
}

export function startMarker(marker: string): string {
  return `<!-- ${marker}:start -->`;
}

export function endMarker(marker: string): string {
  return `<!-- ${marker}:end -->`;
}

/** `text` with what lies between the block's markers replaced; throws when they are missing or out of order. */
export function replaceBlock(text: string, marker: string, body: string, file = 'the file'): string {
  const start = text.indexOf(startMarker(marker));
  const end = text.indexOf(endMarker(marker));
  if (start < 0 || end < start || text.indexOf(startMarker(marker), start + 1) >= 0)
    throw new Error(`${file}: expected one ${startMarker(marker)} … ${endMarker(marker)} block; put the markers back.`);
  return `${text.slice(0, start + startMarker(marker).length)}\n${body}\n${text.slice(end)}`;
}

function properties(tool: ToolFacts): { name: string; required: boolean; schema: JsonProperty }[] {
  const json = toInputJsonSchema(tool.inputSchema) as {
    properties?: Record<string, JsonProperty>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    required: json.required?.includes(name) ?? false,
    schema,
  }));
}

/** `string`, `"up"\|"down"`, `number 0.5–60`, … as a reader writes a type. */
function typeOf(schema: JsonProperty): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join('\\|');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const range =
    schema.minimum !== undefined && schema.maximum !== undefined
      ? ` ${schema.minimum}–${schema.maximum}`
      : schema.minimum !== undefined
        ? ` ≥ ${schema.minimum}`
        : '';
  return `${schema.type ?? 'any'}${range}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function kind(annotations: ToolAnnotations): string {
  if (annotations.readOnlyHint) return 'read-only';
  return [
    'acting',
    annotations.destructiveHint ? '**destructive**' : '',
    annotations.idempotentHint ? 'idempotent' : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** README: one row per tool, the parameters by name (`?`: optional). */
export function readmeTable(tools: readonly ToolFacts[]): string {
  const rows = tools.map((tool) => {
    const params = properties(tool)
      .map((p) => `\`${p.name}${p.required ? '' : '?'}\``)
      .join(', ');
    return `| \`${tool.name}\` | ${tool.toolset} | ${params || '—'} | ${kind(tool.annotations)} | ${cell(tool.answer)} |`;
  });
  return [
    `<!-- Written by scripts/tool-docs.ts from the tool declarations (src/mcp/tools/); npm run tools:docs rewrites it. -->`,
    '| tool | toolset | parameters | kind | `data` on success |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The contract: per tool, what it does, its parameters with type and description, its kind and answer. */
export function contractSections(tools: readonly ToolFacts[]): string {
  const parts = tools.map((tool) => {
    const params = properties(tool);
    const table =
      params.length === 0
        ? 'No parameters.'
        : [
            '| parameter | type | description |',
            '|---|---|---|',
            ...params.map(
              (p) =>
                `| \`${p.name}\`${p.required ? '' : ' (optional)'} | \`${typeOf(p.schema)}\` | ${cell(p.schema.description ?? '')} |`,
            ),
          ].join('\n');
    return [
      `#### \`${tool.name}\` — ${tool.title}`,
      '',
      `Toolset \`${tool.toolset}\`; ${kind(tool.annotations)}. ${tool.description}`,
      '',
      table,
      '',
      `\`data\` on success: ${tool.answer}.`,
    ].join('\n');
  });
  return [
    `<!-- Written by scripts/tool-docs.ts from the tool declarations (src/mcp/tools/); npm run tools:docs rewrites it. -->`,
    ...parts,
  ].join('\n\n');
}

/** The contract's toolset table: which tools each toolset brings. */
export function toolsetTable(tools: readonly ToolFacts[]): string {
  return [
    `<!-- Written by scripts/tool-docs.ts from the tool declarations; npm run tools:docs rewrites it. -->`,
    '| toolset | tools |',
    '|---|---|',
    ...TOOLSET_NAMES.map(
      (toolset) =>
        `| \`${toolset}\` | ${tools
          .filter((tool) => tool.toolset === toolset)
          .map((tool) => `\`${tool.name}\``)
          .join(', ')} |`,
    ),
  ].join('\n');
}

export const BLOCKS: readonly Block[] = [
  { file: 'README.md', marker: 'tools', render: readmeTable },
  { file: 'docs/reference/contract.md', marker: 'tools', render: contractSections },
  { file: 'docs/reference/contract.md', marker: 'toolsets', render: toolsetTable },
];

/** Each file as its blocks would make it, with the files whose text differs. */
export function regenerate(read: (file: string) => string, tools: readonly ToolFacts[] = TOOL_DECLARATIONS) {
  const texts = new Map<string, string>();
  for (const block of BLOCKS) {
    const text = texts.get(block.file) ?? read(block.file);
    texts.set(block.file, replaceBlock(text, block.marker, block.render(tools), block.file));
  }
  return [...texts].map(([file, text]) => ({ file, text, changed: text !== read(file) }));
}

function main(argv: readonly string[]): number {
  const root = new URL('../', import.meta.url);
  const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
  const results = regenerate(read);
  const changed = results.filter((result) => result.changed);
  if (argv.includes('--write')) {
    for (const result of changed) writeFileSync(new URL(result.file, root), result.text);
    for (const result of changed) console.log(`tool-docs: rewrote the tool tables of ${result.file}`);
    return 0;
  }
  for (const result of changed)
    console.error(
      `tool-docs: the tool tables of ${result.file} differ from the tool declarations. Run npm run tools:docs -- --write and commit the result.`,
    );
  return changed.length > 0 ? 1 : 0;
}

if (import.meta.url === new URL(process.argv[1] ?? '', 'file:').href) process.exitCode = main(process.argv.slice(2));
