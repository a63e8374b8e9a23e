// `faultline kinds` is generated from the registries: every fault kind (under its seam, with each parameter) and
// every threshold metric appear, read from the registries here, not from a list in the test.
import { describe, expect, it } from 'vitest';
import { renderKinds } from '../../../src/cli/kinds-command.ts';
import { FAULTS } from '../../../src/faults/registry.ts';
import { METRICS } from '../../../src/measure/metric-table.ts';

/** The listing's lines under `seam: X`, up to the next seam or the metrics. */
function section(text: string, seam: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`seam: ${seam}`);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => l === '' || l.startsWith('seam: '));
  return end === -1 ? rest : rest.slice(0, end);
}

describe('faultline kinds', () => {
  const text = renderKinds();

  it('lists every registered fault kind under its seam with its summary and every parameter', () => {
    expect(FAULTS.length).toBeGreaterThan(25);
    for (const kind of FAULTS) {
      const lines = section(text, kind.seam);
      const at = lines.findIndex((l) => l.startsWith(`  ${kind.kind}: ${kind.summary}`));
      expect(at, `${kind.seam}/${kind.kind}`).toBeGreaterThanOrEqual(0);
      const rest = lines.slice(at + 1);
      const end = rest.findIndex((l) => !l.startsWith('      '));
      const params = end === -1 ? rest : rest.slice(0, end);
      const names = params.map((l) => l.trim().split(/\s+/)[0]);
      const declared = Object.keys(kind.params.shape);
      expect(names, `${kind.seam}/${kind.kind}`).toEqual(declared.length > 0 ? declared : ['(no']);
    }
  });

  it('lists every threshold metric with its description', () => {
    const metrics = text.slice(text.indexOf('Metrics usable in thresholds'));
    for (const [name, metric] of Object.entries(METRICS)) {
      expect(metrics).toMatch(new RegExp(`^  ${name} +${metric.describe.replace(/[()+*.]/g, '\\$&')}$`, 'm'));
    }
  });

  it('shows each parameter with its type, default or required, and meaning', () => {
    const lines = section(text, 'network');
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {6}latency +integer +required +delay added to each chunk, ms$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ {6}stream +upstream\|downstream +default "downstream" /));
  });
});
