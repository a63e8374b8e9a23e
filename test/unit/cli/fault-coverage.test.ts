import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCoverage } from '../../../src/cli/fault-coverage.ts';
import { FAULT_AREAS } from '../../../src/core/fault-areas.ts';
import { FAULTS } from '../../../src/faults/registry.ts';
import { METRICS } from '../../../src/measure/metric-table.ts';
import { REPO } from '../../helpers/cli.ts';

const rows = () =>
  renderCoverage()
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| area') && !line.startsWith('| ---'));

describe('faultline kinds --coverage', () => {
  it('has one row per area, and every fault kind and detector metric in a row it declared', () => {
    const table = rows();
    expect(table).toHaveLength(Object.keys(FAULT_AREAS).length);
    for (const kind of FAULTS) {
      expect(kind.covers.length, `${kind.seam}/${kind.kind} declares no area`).toBeGreaterThan(0);
      for (const area of kind.covers) {
        const row = table.find((r) => r.startsWith(`| ${FAULT_AREAS[area]} |`));
        expect(row, area).toContain(`\`${kind.seam}/${kind.kind}\``);
      }
    }
    for (const [name, metric] of Object.entries(METRICS)) {
      for (const area of metric.detects ?? []) {
        expect(table.find((r) => r.startsWith(`| ${FAULT_AREAS[area]} |`))).toContain(`\`${name}\``);
      }
    }
  });

  it('says "neither" for an area nothing declares, and names no kind that did not declare it', () => {
    const provider = rows().find((r) => r.startsWith(`| ${FAULT_AREAS.provider} |`));
    expect(FAULTS.some((f) => f.covers.includes('provider'))).toBe(false);
    expect(provider).toBe(`| ${FAULT_AREAS.provider} | neither | none | none |`);
    const schema = rows().find((r) => r.startsWith(`| ${FAULT_AREAS.schema} |`)) ?? '';
    expect(schema).not.toContain('`network/latency`');
  });

  it('docs/fault-coverage.md holds the table as the command prints it', () => {
    const doc = readFileSync(join(REPO, 'docs/fault-coverage.md'), 'utf8');
    const between = doc.split('<!-- coverage:start -->\n')[1]?.split('<!-- coverage:end -->')[0];
    expect(between).toBe(renderCoverage());
  });
});
