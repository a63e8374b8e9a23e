// The spare reference server child (targets/spare-child.ts): a suite forks it while a run drains, and the next run's
// server takes it instead of booting its own. Checked by process ids and counts: the server that starts after a warm
// is the spare (and, the negative control, a new process when none was warmed); a waiting spare neither keeps the
// harness alive nor outlives it; a suite takes a spare for every run but its first, a profile's faults-off control
// included, and leaves none behind.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { runSuite } from '../../src/run/run-suite.ts';
import { ServerHandle } from '../../src/targets/child-target.ts';
import { dropSpareChild, spareChildTally, warmSpareChild } from '../../src/targets/spare-child.ts';
import { REPO } from '../helpers/cli.ts';
import { alive, childrenOf, pidsIn } from '../helpers/processes.ts';
import { shortProfile } from '../helpers/short-profile.ts';

const handles: ServerHandle[] = [];
afterEach(async () => {
  await dropSpareChild();
  await Promise.allSettled(handles.splice(0).map((h) => h.stop()));
});

async function start(): Promise<ServerHandle> {
  const handle = await ServerHandle.start({ seed: 7 });
  handles.push(handle);
  return handle;
}

/** Runs the fixture that warms a spare (and, with `drop`, drops it): its exit code and what it printed. */
async function runFixture(...args: string[]): Promise<{ code: number | string | null; out: string }> {
  const fixture = join(REPO, 'test/e2e/fixtures/warm-spare.ts');
  const proc = spawn(process.execPath, [join(REPO, 'bin/run-ts.js'), fixture, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  // A spare holding the event loop keeps the process running forever: 60 s (start-up on a loaded machine) without
  // an exit is that.
  const code = await new Promise<number | string | null>((resolve) => {
    const hung = setTimeout(() => {
      proc.kill('SIGKILL');
      resolve('still running after 60 s');
    }, 60_000);
    proc.on('close', (exit) => {
      clearTimeout(hung);
      resolve(exit);
    });
  });
  return { code, out };
}

describe('the spare reference server child', () => {
  it('is the process the next server start runs in; with none warmed, the start forks a new one', async () => {
    warmSpareChild();
    const waiting = childrenOf(process.pid);
    const warmed = await start();
    expect(waiting).toContain(warmed.pid);

    const before = childrenOf(process.pid);
    const cold = await start();
    expect(cold.pid).toBeDefined();
    expect(before).not.toContain(cold.pid);
  });

  it('keeps no process alive: the harness exits with a spare waiting, and the spare exits after it', async () => {
    const { code, out } = await runFixture();
    expect(code).toBe(0);
    const spares = pidsIn(out);
    expect(spares).toHaveLength(1);
    const deadline = Date.now() + 10_000;
    while (alive(spares[0]) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive(spares[0])).toBe(false);
  });

  it('dropping a spare waits for it to exit, in a process with nothing else to keep it going', async () => {
    const { code, out } = await runFixture('drop');
    expect(code).toBe(0);
    expect(out).toContain('dropped');
    expect(alive(pidsIn(out)[0])).toBe(false);
  });

  it('a suite takes a spare for every run after its first, the faults-off control included, and keeps none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-spare-'));
    const relative = shortProfile('relative', '1s').replace(
      'expect:\n  - ops >= 1\n',
      'faults:\n  - { seam: dependency, kind: latency, dependency: search, ms: 1, start: 0s }\nexpect:\n  - latency_p99_ms <= 100 x control\n',
    );
    const files = { first: shortProfile('first', '1s'), relative, last: shortProfile('last', '1s') };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, `${name}.yaml`), text);
    const before = spareChildTally();
    const { run } = await runSuite(
      Object.keys(files).map((name) => loadProfile(join(dir, `${name}.yaml`))),
      {
        network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
        signal: new AbortController().signal,
        say: () => undefined,
      },
    );
    const after = spareChildTally();
    expect(run.profiles.map((p) => [p.name, p.verdict])).toEqual([
      ['first', 'pass'],
      ['relative', 'pass'],
      ['last', 'pass'],
    ]);
    // Four runs (relative's faults-off control ran first): each after the first took a spare, and no spare was
    // forked that no run took.
    expect({ forked: after.forked - before.forked, taken: after.taken - before.taken }).toEqual({
      forked: 3,
      taken: 3,
    });
    expect(childrenOf(process.pid)).toEqual([]);
  });
});
