// faultline kinds: every fault kind a profile can name, by seam, with its one-line summary and its parameters
// (type, default, meaning and unit), and every metric a threshold can use. Generated from the fault registry and
// the metric table, so it cannot drift from what the loader accepts.
import { z } from 'zod';
import { SEAMS } from '../faults/kind.ts';
import { FAULTS } from '../faults/registry.ts';
import { METRICS } from '../measure/metric-table.ts';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** A parameter's type as one short word: integer, string[], before|after, string|null. */
function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.join('|');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map(typeOf).join('|');
  if (schema.type === 'array') return `${schema.items ? typeOf(schema.items) : 'any'}[]`;
  return Array.isArray(schema.type) ? schema.type.join('|') : (schema.type ?? 'any');
}

function paramLines(params: z.ZodObject): string[] {
  const schema = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(([name, p]) => [
    name,
    typeOf(p),
    required.has(name) ? 'required' : p.default !== undefined ? `default ${JSON.stringify(p.default)}` : 'optional',
    p.description ?? '',
  ]);
  if (rows.length === 0) return ['      (no parameters)'];
  const width = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `      ${r.map((cell, i) => (i < 3 ? cell.padEnd(width[i]) : cell)).join('  ')}`.trimEnd());
}

export function renderKinds(): string {
  const lines = [
    'Fault kinds. Every fault window has `seam`, `kind`, `start` (ms after the workload starts, or "500ms", "2s")',
    'and optionally `stop` (default: the end of the run), beside the parameters listed here.',
  ];
  for (const seam of SEAMS) {
    lines.push('', `seam: ${seam}`);
    for (const kind of FAULTS.filter((f) => f.seam === seam)) {
      lines.push(`  ${kind.kind}: ${kind.summary} (needs ${kind.needs.join(', ')})`, ...paramLines(kind.params));
    }
  }
  lines.push('', 'Metrics usable in thresholds (`expect: ["<metric> <op> <number>"]`):');
  const width = Math.max(...Object.keys(METRICS).map((name) => name.length));
  for (const [name, metric] of Object.entries(METRICS)) lines.push(`  ${name.padEnd(width)}  ${metric.describe}`);
  return `${lines.join('\n')}\n`;
}
