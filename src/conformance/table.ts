// The conformance-under-chaos table: a row per scenario, a column per pass (clean first), each cell the checks
// passed of those judged. A scenario that fails clean is marked as such (the target does not cover it, or breaks
// it without help) and not run under faults; a cell below the clean pass is a degradation, marked ✗ and listed
// with its first failure. A fault that never acted during its pass is marked inert: its column proves nothing.
import type { ChaosPass } from './chaos-run.ts';

export interface Degradation {
  scenario: string;
  fault: string;
  clean: number;
  passed: number;
  failure?: string;
}

export function degradations(passes: readonly ChaosPass[]): Degradation[] {
  const [clean, ...faulted] = passes;
  const out: Degradation[] = [];
  for (const base of clean.results.filter((r) => r.failed === 0)) {
    for (const pass of faulted) {
      const r = pass.results.find((x) => x.scenario === base.scenario);
      const passed = r?.passed ?? 0;
      if (passed < base.passed || (r?.failed ?? 1) > base.failed)
        out.push({ scenario: base.scenario, fault: pass.label, clean: base.passed, passed, failure: r?.firstFailure });
    }
  }
  return out;
}

export function conformanceTable(passes: readonly ChaosPass[]): string {
  const [clean] = passes;
  const degraded = new Set(degradations(passes).map((d) => `${d.scenario}\0${d.fault}`));
  const cell = (pass: ChaosPass, scenario: string) => {
    const r = pass.results.find((x) => x.scenario === scenario);
    if (!r) return pass === clean ? 'not run' : '–';
    const text = `${r.passed}/${r.passed + r.failed}`;
    return degraded.has(`${scenario}\0${pass.label}`) ? `${text} ✗` : text;
  };
  const rows = clean.results.map((base) => {
    const note = base.failed > 0 ? ' (fails clean)' : '';
    return `| ${base.scenario}${note} | ${passes.map((p) => cell(p, base.scenario)).join(' | ')} |`;
  });
  const hits = `| fault hits | ${passes.map((p) => (p.label === 'clean' ? '' : p.hits === null ? 'cannot count' : String(p.hits))).join(' | ')} |`;
  return [
    `| scenario | ${passes.map((p) => (p.hits === 0 ? `${p.label} (inert: 0 hits)` : p.label)).join(' | ')} |`,
    `| --- | ${passes.map(() => '---').join(' | ')} |`,
    ...rows,
    hits,
  ].join('\n');
}
