// Every bench refuses a flag it does not know before it measures anything: one line naming it, the usage hint, exit
// 2, no stack trace (a mistyped `--real` must not run for minutes without the side it asked for). The benches are
// the bench/ files that say how to run them (a `Run:` line); each parses its flags through bench/args.ts (the
// Toxiproxy benches through toxiproxy-sides.ts's realSide, which does).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runNode } from '../helpers/cli.ts';

const BENCH = join(REPO, 'bench');
const benches = readdirSync(BENCH)
  .filter((f) => f.endsWith('.ts') && /^\/\/.*\bRun:/m.test(readFileSync(join(BENCH, f), 'utf8')))
  .sort();

describe('bench flags', () => {
  it('finds the benches', () => {
    expect(benches.length).toBeGreaterThanOrEqual(13);
    expect(benches).toContain('harness-overhead.ts');
  });

  it('every bench parses its flags through bench/args.ts', () => {
    const without = benches.filter((f) => !/\b(benchArgs|realSide)[<(]/.test(readFileSync(join(BENCH, f), 'utf8')));
    expect(without).toEqual([]);
  });

  it('an unknown flag: one line naming it, the usage hint, exit 2, nothing measured', async () => {
    const results = await Promise.all(
      benches.map((f) => runNode(join(REPO, 'bin/run-ts.js'), [join(BENCH, f), '--no-such-flag'])),
    );
    for (const [i, r] of results.entries()) {
      expect({ bench: benches[i], code: r.code, stdout: r.stdout }).toEqual({ bench: benches[i], code: 2, stdout: '' });
      expect(r.stderr.trim().split('\n'), benches[i]).toEqual([
        expect.stringMatching(/^[\w:-]+: unknown option '--no-such-flag'$/),
        '(run with --help for usage)',
      ]);
    }
  });
});
