// Issue 29: a profile that listens (subscriptions/listen) split by ops into two shards and merged. Each shard
// listened on a stream of its own; the merge judges each stream on its own shard's charges and adds the counts, so
// every charge is counted once, as in the unsharded run, and lost only when its own shard's stream missed it: on a
// server of its own per shard, on ONE server both shards share (where each stream also announces charges that are
// not its shard's), and with streams cut for real (the naive client never listens again), where the lost ones must stay lost.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskClient } from '../../src/client/task-client.ts';
import type { History } from '../../src/core/history.ts';
import { TRACE_META_KEY } from '../../src/core/wire.ts';
import type { RunReport } from '../../src/measure/run-report.ts';
import { runCli } from '../helpers/cli.ts';
import { type Serving, serveCli } from '../helpers/serve.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-listen-shards-'));
const out = (name: string) => join(dir, name);
const metricsOf = (name: string) =>
  (JSON.parse(readFileSync(join(out(name), 'report.json'), 'utf8')) as RunReport).profiles[0].metrics;
const historyOf = (name: string) =>
  JSON.parse(readFileSync(join(out(name), 'shard.json'), 'utf8')).profiles[0].history as History;

/** The notification counts a merge must get right. */
const notifications = (m: RunReport['profiles'][number]['metrics']) => ({
  delivered: m.notificationsDelivered,
  duplicated: m.notificationsDuplicated,
  lost: m.notificationsLost,
  missed: m.changesMissed,
  relistens: m.relistens,
});
type Counts = ReturnType<typeof notifications>;
const added = (a: Counts, b: Counts): Counts =>
  Object.fromEntries(Object.keys(a).map((k) => [k, (a as never)[k] + (b as never)[k]])) as Counts;

/** 20 payments at 10/s while listening to the payments feed, no faults and generous timeouts. */
const twentyCharges = (name: string, target = '') => `name: ${name}
description: payments while the client listens to the payments feed, no faults
seed: 9
duration: 2s
protocol: modern
listen:
  resources: [faultline://payments]
${target}
client: { policy: resilient, attemptTimeoutMs: 8000, deadlineMs: 20000 }
workload:
  rate: 10
  mix:
    - tool: create_payment
      args:
        customer_id: cus_{op}
        amount_cents: { int: [100, 50000] }
        currency: EUR
faults: []
expect:
  - ops_ok == 20
`;

/** Charges on the server every 100 ms, each under its own key and a trace id of no shard, until stopped. */
function charging(url: string) {
  const client = new TaskClient(url, fetch);
  let n = 0;
  const timer = setInterval(() => {
    n++;
    const charge = {
      name: 'create_payment',
      arguments: { customer_id: `cus_by${n}`, amount_cents: 100, currency: 'EUR', idempotency_key: `bystander-${n}` },
      _meta: { [TRACE_META_KEY]: `bystander:op-${n}` },
    };
    client.create(charge).catch(() => {});
  }, 100);
  return { stop: () => clearInterval(timer) };
}

const run = (profile: string, args: string[], name: string) =>
  runCli(['run', profile, ...args, '--out', out(name)], { timeoutMs: 90_000 });

/**
 * The single run, then both shards at once (with `whileShardsRun` beside them), then the merge; every report read
 * back. Each test's folders start with its profile's name: the tests run two at a time.
 */
async function singleAndShards(
  profile: string,
  args: string[] = [],
  shardArgs: string[] = [],
  whileShardsRun?: () => { stop(): void },
) {
  const name = (part: string) => `${basename(profile, '.yaml')}-${part}`;
  const shardDirs = [name('shard-1'), name('shard-2')];
  const single = await run(profile, args, name('single'));
  expect(single.stderr).not.toMatch(/internal error/);
  const beside = whileShardsRun?.();
  const shards = await Promise.all(
    shardDirs.map((dir, i) => run(profile, [...args, ...shardArgs, '--shard', `${i + 1}/2`], dir)),
  ).finally(() => beside?.stop());
  for (const s of shards) expect(s.stderr).not.toMatch(/internal error/);
  const merged = await runCli(['merge', ...shardDirs.map(out), '--out', out(name('merged'))]);
  expect(merged.stderr).toMatch(/merged 2 shard\(s\) into/);
  return {
    single: metricsOf(name('single')),
    parts: shardDirs.map(metricsOf),
    shardDirs,
    merged: metricsOf(name('merged')),
  };
}

// Two tests at a time: each compares counts of 20 fault-free charges (timeouts of seconds) or of its own cut
// streams, which a busier machine does not move.
describe.concurrent('notification metrics through faultline merge (modern)', () => {
  it('each shard on its own reference server: the merge counts what the single run counts', async () => {
    const profile = join(dir, 'listen-own.yaml');
    writeFileSync(profile, twentyCharges('listen-own'));
    const { single, parts, merged } = await singleAndShards(profile);
    expect(parts.map((m) => m.ops)).toEqual([10, 10]);
    expect(notifications(single)).toEqual({ delivered: 20, duplicated: 0, lost: 0, missed: 0, relistens: 0 });
    expect(notifications(merged)).toEqual(notifications(single));
    expect(notifications(merged)).toEqual(added(notifications(parts[0]), notifications(parts[1])));
  }, 300_000);

  describe('both shards on ONE shared server', () => {
    const token = 'listen-shard-token';
    let server: Serving | undefined;
    let target = '';

    beforeAll(async () => {
      server = await serveCli(
        ['server', '--protocol', 'modern', '--port', '0', '--admin-port', '0', '--admin-token', token],
        [/MCP endpoint (\S+)/, /control API (\S+)/],
      );
      const [mcpUrl, adminUrl] = server.urls;
      target = `target: { kind: url, url: ${mcpUrl}, admin: ${adminUrl}, adminTokenEnv: FAULTLINE_LISTEN_SHARD_TOKEN }`;
    }, 30_000);

    afterAll(() => server?.stop());

    it("each stream also hears charges that are not its shard's; each charge is still counted once", async () => {
      process.env.FAULTLINE_LISTEN_SHARD_TOKEN = token;
      const profile = join(dir, 'listen-shared.yaml');
      writeFileSync(profile, twentyCharges('listen-shared', target));
      // Whether the two shards' workloads overlap is the machine's timing; a bystander charging on the same server
      // all along is not: every stream hears charges no shard made, each under a trace id of no shard.
      const { single, parts, merged, shardDirs } = await singleAndShards(profile, [], ['--run-id', 'ci-29'], () =>
        charging(server!.urls[0]),
      );
      const foreign = shardDirs.map((dir) => {
        const h = historyOf(dir);
        const own = new Set([...h.effects].map((e) => e.idempotencyKey));
        return (h.subscriptions ?? []).filter((e) => e.kind === 'announced' && !own.has(e.key)).length;
      });
      for (const n of foreign) expect(n).toBeGreaterThan(0);
      expect(notifications(single)).toEqual({ delivered: 20, duplicated: 0, lost: 0, missed: 0, relistens: 0 });
      expect(notifications(merged)).toEqual(notifications(single));
      expect(notifications(merged)).toEqual(added(notifications(parts[0]), notifications(parts[1])));
    }, 300_000);
  });

  it('negative control: streams cut for real (naive, listen-cut) keep their lost charges lost in the merge', async () => {
    const { single, parts, merged } = await singleAndShards('chaos-profiles/listen-cut.yaml', ['--policy', 'naive']);
    for (const m of [single, ...parts]) expect(m.notificationsLost).toBeGreaterThan(0);
    expect(notifications(merged)).toEqual(added(notifications(parts[0]), notifications(parts[1])));
    // In kind as the single run: every charge counted once, delivered or lost.
    expect(merged.notificationsDelivered! + merged.notificationsLost!).toBe(merged.ops);
    expect(single.notificationsDelivered! + single.notificationsLost!).toBe(single.ops);
    expect(merged.ops).toBe(single.ops);
    expect(merged.relistens).toBe(0);
  }, 300_000);
});
