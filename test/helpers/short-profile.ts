// A shipped profile for tests of the run itself: the baseline profile under another name, duration and target, at
// 10 ops/s, with a verdict a loaded machine does not change (ops >= 1).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './cli.ts';

const baseline = readFileSync(join(REPO, 'chaos-profiles/baseline.yaml'), 'utf8');

export function shortProfile(name: string, duration: string, target = ''): string {
  return baseline
    .replace('name: baseline', `name: ${name}`)
    .replace('duration: 4s', `duration: ${duration}${target ? `\ntarget: { kind: ${target} }` : ''}`)
    .replace('rate: 25', 'rate: 10')
    .replace(/expect:[\s\S]*$/, 'expect:\n  - ops >= 1\n');
}
