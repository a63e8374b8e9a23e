// faultline kinds --coverage: which areas of MCP server faults Faultline can inject (the fault kinds' `covers`) and
// detect (the metrics' `detects`), and which neither, as a Markdown table built from those declarations only.
import { FAULT_AREA_SOURCE, FAULT_AREAS, type FaultArea } from '../core/fault-areas.ts';
import { FAULTS } from '../faults/registry.ts';
import { METRICS } from '../measure/metric-table.ts';

function standing(injected: number, detected: number): string {
  if (injected > 0 && detected > 0) return 'injects and detects';
  if (injected > 0) return 'injects only';
  return detected > 0 ? 'detects only' : 'neither';
}

export function renderCoverage(): string {
  const lines = [
    `Fault areas of MCP servers (${FAULT_AREA_SOURCE}), from each fault kind's \`covers\` and each metric's \`detects\`.`,
    '',
    '| area | standing | injected by (seam/kind) | detected by (metric) |',
    '| --- | --- | --- | --- |',
  ];
  for (const [area, meaning] of Object.entries(FAULT_AREAS) as [FaultArea, string][]) {
    const kinds = FAULTS.filter((f) => f.covers.includes(area)).map((f) => `${f.seam}/${f.kind}`);
    const metrics = Object.entries(METRICS)
      .filter(([, m]) => m.detects?.includes(area))
      .map(([name]) => name);
    const list = (names: string[]) => (names.length > 0 ? names.map((n) => `\`${n}\``).join(', ') : 'none');
    lines.push(`| ${meaning} | ${standing(kinds.length, metrics.length)} | ${list(kinds)} | ${list(metrics)} |`);
  }
  return `${lines.join('\n')}\n`;
}
