// A shipped profile for tests of the run itself: the baseline profile under another name, duration and target, at
// 10 ops/s, with a verdict a loaded machine does not change (ops >= 1).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './cli.ts';

const baseline = readFileSync(join(REPO, 'chaos-profiles/baseline.yaml'), 'utf8');

/** `text` with `pattern` replaced; throws when it is not there (a shipped profile changed under a test). */
export function edited(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`the profile has no ${pattern}: the test's edit would do nothing`);
  return text.replace(pattern, replacement);
}

export function shortProfile(name: string, duration: string, target = ''): string {
  let text = edited(baseline, /^name: baseline$/m, `name: ${name}`);
  text = edited(text, /^duration: .*$/m, `duration: ${duration}${target ? `\ntarget: { kind: ${target} }` : ''}`);
  text = edited(text, /^ {2}rate: \d+$/m, '  rate: 10');
  return edited(text, /^expect:[\s\S]*$/m, 'expect:\n  - ops >= 1\n');
}
