// The start-up calibration on the wire: a pair made really slow (a 700 ms latency toxic on the MCP proxy, added
// when the proxy is created, so the calibration pings and every op pay it) misses its time bound by less than the
// delay it measured: that bound, by name, is inconclusive (exit 3) while its count threshold still holds. The
// negative control is the same profile without the toxic: a normal calibration, no margin worth the name, a pass.
// The rate probe on the wire: a server that answers one ping at a time, each after SERVICE_MS (a pair with a
// capacity of 1000 / SERVICE_MS pings a second), is fine for the idle pings, one at a time, and falls behind a
// profile whose rate is four times that capacity: the report says so, and the count threshold is still judged as
// measured. The control is the same server at a rate under its capacity: the probe keeps up and the verdict is a pass.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, PingRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../../src/core/sleep.ts';
import { KEEP_UP_SHARE, LOAD_SHARE, machineDelayMs } from '../../src/measure/calibration.ts';
import { EXIT_CODE_OF } from '../../src/measure/run-report.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { PROBE_UTILIZATION } from '../../src/run/calibrate.ts';
import { runProfile } from '../../src/run/run-profile.ts';

const PROFILE = `
name: calibration-probe
description: a short read-only workload with a time bound and one dependency fault window
seed: 7
duration: 2s
client: { policy: resilient, attemptTimeoutMs: 2000, deadlineMs: 6000 }
workload:
  rate: 8
  mix:
    - tool: search_documents
      args: { query: invoice }
faults:
  - { seam: dependency, kind: status, dependency: search, status: 503, start: 0.5s, stop: 1.2s }
expect:
  - latency_p50_ms < 600
  - duplicate_effects == 0
`;
const TOXIC_LATENCY_MS = 700;

async function run(slow: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-calibration-'));
  writeFileSync(join(dir, 'probe.yaml'), PROFILE);
  // The profile has no network fault, so its link would have no proxy: the slow pair's link goes through one, for
  // the toxic; the control's is the profile's own.
  const loaded = loadProfile(join(dir, 'probe.yaml'));
  return runProfile(slow ? { ...loaded, proxiedLink: true } : loaded, {
    signal: new AbortController().signal,
    network: async (seed, onDecision) => {
      const backend = await createNetworkBackend('embedded', { seed, onDecision });
      if (!slow) return backend;
      const createProxy = backend.createProxy.bind(backend);
      backend.createProxy = async (name, upstream) => {
        const endpoint = await createProxy(name, upstream);
        await backend.api.addToxic(name, { type: 'latency', attributes: { latency: TOXIC_LATENCY_MS, jitter: 0 } });
        return endpoint;
      };
      return backend;
    },
  });
}

describe('the start-up calibration', () => {
  it('a pair slowed on the wire makes its missed time bound inconclusive by name (exit 3), never its count', async () => {
    const { report } = await run(true);
    const c = report.calibration!;
    expect(c.calls).toBe(20);
    // Every ping crossed the toxic: the calibration measured the slowness, nobody told it.
    expect(c.p50Ms).toBeGreaterThanOrEqual(TOXIC_LATENCY_MS);
    expect(c.p95Ms).toBeGreaterThan(LOAD_SHARE * 2000);
    expect(c.tooLoaded).toMatch(/over 25% of the client's attempt timeout \(2000 ms\)/);
    // The time bound really was missed on this pair, by less than the 4 x p95 margin the calibration measured.
    const bound = report.thresholds.find((t) => t.metric === 'latency_p50_ms')!;
    expect(bound.actual).toBeGreaterThan(bound.target);
    expect(bound).toMatchObject({ status: 'inconclusive', marginMs: Math.round(machineDelayMs(c)) });
    expect(report.thresholds.find((t) => t.metric === 'duplicate_effects')).toMatchObject({ status: 'pass' });
    expect(report.verdict).toBe('inconclusive');
    expect(report.verdictReason).toMatch(/^"latency_p50_ms < 600" at [\d.]+ ms: over its bound by [\d.]+ ms, within/);
    expect(report.notes).toContain(
      `machine load: ${c.tooLoaded} (counts are judged as measured; a missed time bound within the machine's delay is inconclusive)`,
    );
    expect(EXIT_CODE_OF[report.verdict]).toBe(3);
  }, 60_000);

  it('negative control: a normal calibration leaves the verdict to the thresholds', async () => {
    const { report } = await run(false);
    const c = report.calibration!;
    expect(c.calls).toBe(20);
    expect(c.p95Ms).toBeLessThan(LOAD_SHARE * 2000);
    expect(c.tooLoaded).toBeUndefined();
    // The reference server's read-only search_documents, timed before the fault window opened: no error.
    expect(c.toolCall).toMatchObject({ tool: 'search_documents', calls: 5, errors: 0 });
    // At 8/s the rate probe runs only where the idle pings were slow enough for calls to queue; else it says why not.
    if ((8 * c.p95Ms!) / 1000 < PROBE_UTILIZATION) {
      expect(c.probe).toMatchObject({ model: 'open', intendedRate: 8, calls: 0, durationMs: 0 });
      expect(c.probe!.skipped).toMatch(/^not needed: 8\/s x the idle p95 of [\d.]+ ms keeps the pair busy \d+% /);
    } else expect(c.probe!.calls).toBeGreaterThanOrEqual(5);
    expect(report.metrics.faultWindows[0].hits).toBeGreaterThan(0);
    expect(report.verdict).toBe('pass');
  }, 60_000);
});

const SERVICE_MS = 40;
const CAPACITY = 1000 / SERVICE_MS;

/** A stateless Streamable HTTP endpoint on an ephemeral loopback port: a new MCP server (`mcp()`) per request. */
async function serveStateless(mcp: () => Server): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer(async (req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await mcp().connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}

/** An MCP server with a tool that answers at once and a ping that waits its turn: one at a time, SERVICE_MS each. */
function onePingAtATime(): () => Server {
  let queue = Promise.resolve();
  return () => {
    const server = new Server({ name: 'one-ping-at-a-time', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'echo', description: 'answers at once', inputSchema: { type: 'object' } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
    server.setRequestHandler(PingRequestSchema, async () => {
      const turn = queue.then(() => sleep(SERVICE_MS));
      queue = turn.then(() => {});
      await turn;
      return {};
    });
    return server;
  };
}

describe('the rate probe', () => {
  let served: Awaited<ReturnType<typeof serveStateless>>;
  let url: string;
  beforeAll(async () => {
    served = await serveStateless(onePingAtATime());
    ({ url } = served);
  });
  afterAll(() => served.close());

  async function runAt(rate: number) {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-probe-'));
    writeFileSync(
      join(dir, 'probe.yaml'),
      `
name: rate-probe
description: a no-fault workload on a server that answers one ping at a time
seed: 3
duration: 1s
target: { kind: url, url: ${url} }
client: { policy: resilient, attemptTimeoutMs: 4000, deadlineMs: 8000 }
workload:
  rate: ${rate}
  mix:
    - tool: echo
      args: {}
expect:
  - ops_fail == 0
`,
    );
    return runProfile(loadProfile(join(dir, 'probe.yaml')), {
      signal: new AbortController().signal,
      network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
    });
  }

  it("a rate over the pair's capacity is reported, naming the rates, and the count is still judged", async () => {
    const { report } = await runAt(4 * CAPACITY);
    const c = report.calibration!;
    // The idle pings, one at a time, see a healthy pair: only the probe can tell.
    expect(c.p95Ms).toBeLessThan(LOAD_SHARE * 4000);
    // The idle pings wait their turn too (SERVICE_MS each): at this rate calls could queue, so the probe runs.
    expect((4 * CAPACITY * c.p95Ms!) / 1000).toBeGreaterThanOrEqual(PROBE_UTILIZATION);
    expect(c.probe).toMatchObject({ model: 'open', intendedRate: 4 * CAPACITY, timedOut: 0 });
    expect(c.probe!.skipped).toBeUndefined();
    expect(c.probe!.calls).toBeGreaterThanOrEqual(6);
    // The server's one-at-a-time ping holds the probe at (at most) its capacity.
    expect(c.probe!.achievedRate).toBeLessThanOrEqual(CAPACITY * 1.2);
    expect(c.tooLoaded).toMatch(
      new RegExp(
        `^the calibration probe at the workload's rate \\(${4 * CAPACITY}/s\\) completed [\\d.]+ calls/s, under ${KEEP_UP_SHARE * 100}% of the intended ${4 * CAPACITY}/s`,
      ),
    );
    // The workload ran (its tool is not slow). The load is information: the count threshold decides the verdict.
    expect(report.metrics.ops).toBeGreaterThan(0);
    expect(report.notes.join('\n')).toContain(`machine load: ${c.tooLoaded}`);
    const [opsFail] = report.thresholds;
    expect(opsFail.status === 'pass' || opsFail.status === 'fail').toBe(true);
    expect(report.verdict).toBe(opsFail.status);
  }, 60_000);

  it("negative control: a rate under the capacity keeps up and the verdict is the thresholds' (pass)", async () => {
    const { report } = await runAt(CAPACITY / 2.5);
    const c = report.calibration!;
    expect((CAPACITY / 2.5) * c.p95Ms!).toBeGreaterThanOrEqual(PROBE_UTILIZATION * 1000);
    expect(c.probe).toMatchObject({ model: 'open', intendedRate: CAPACITY / 2.5, timedOut: 0 });
    expect(c.probe!.calls).toBeGreaterThanOrEqual(5);
    expect(c.probe!.achievedRate).toBeGreaterThanOrEqual(KEEP_UP_SHARE * (CAPACITY / 2.5));
    expect(c.tooLoaded).toBeUndefined();
    expect(report.verdict).toBe('pass');
  }, 60_000);
});

const TOOL_MS = 60;
/** Past the calibration's 1 s budget for measured tool calls within two calls. */
const SLOW_MS = 700;

/**
 * A server with a read-only `lookup` that takes TOOL_MS, a read-only `slow` that takes SLOW_MS, a read-only `broken`
 * that errors, and a `write` without hints.
 */
function toolServer(calls: Map<string, number>): () => Server {
  return () => {
    const server = new Server({ name: 'tool-costs', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: 'lookup', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        { name: 'slow', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        { name: 'broken', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        { name: 'write', inputSchema: { type: 'object' } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const name = request.params.name;
      calls.set(name, (calls.get(name) ?? 0) + 1);
      if (name === 'lookup') await sleep(TOOL_MS);
      if (name === 'slow') await sleep(SLOW_MS);
      if (name === 'broken') return { isError: true, content: [{ type: 'text', text: 'lookup table missing' }] };
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    return server;
  };
}

describe('the read-only tool call of the calibration', () => {
  const calls = new Map<string, number>();
  let served: Awaited<ReturnType<typeof serveStateless>>;
  let url: string;
  beforeAll(async () => {
    served = await serveStateless(toolServer(calls));
    ({ url } = served);
  });
  afterAll(() => served.close());

  async function runWith(mix: string) {
    calls.clear();
    const dir = mkdtempSync(join(tmpdir(), 'faultline-tool-cost-'));
    writeFileSync(
      join(dir, 'tools.yaml'),
      `
name: tool-cost
description: a no-fault workload on a server whose read-only tool is slower than its ping
seed: 3
duration: 1s
target: { kind: url, url: ${url} }
client: { policy: resilient, attemptTimeoutMs: 4000, deadlineMs: 8000 }
workload:
  concurrency: 1
  ops: 3
  mix:
${mix}
expect:
  - ops_ok >= 1
`,
    );
    return runProfile(loadProfile(join(dir, 'tools.yaml')), {
      signal: new AbortController().signal,
      network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
    });
  }

  it('times the first read-only workload tool (readOnlyHint): a tool call costs more than a ping', async () => {
    const { report } = await runWith('    - { tool: write, weight: 100 }\n    - { tool: lookup, weight: 0.001 }');
    const c = report.calibration!;
    expect(c.toolCall).toMatchObject({ tool: 'lookup', calls: 5, timedOut: 0, errors: 0 });
    // The server was really called: one warm-up and five measured, before the workload (which drew writes only).
    expect(calls.get('lookup')).toBe(6);
    expect(report.metrics.ops).toBe(3);
    expect(calls.get('write')).toBe(3);
    expect(c.toolCall!.p50Ms).toBeGreaterThanOrEqual(TOOL_MS);
    expect(report.verdict).toBe('pass');
  }, 60_000);

  it('a slow read-only tool is timed within the budget: fewer calls, at least one, the server called as often', async () => {
    const { report } = await runWith('    - { tool: write, weight: 100 }\n    - { tool: slow, weight: 0.001 }');
    const c = report.calibration!.toolCall!;
    // Five calls of 700 ms would take 3.5 s; none starts once the measured ones took 1 s, so one or two ran.
    expect(c).toMatchObject({ tool: 'slow', timedOut: 0, errors: 0 });
    expect(c.calls).toBeGreaterThanOrEqual(1);
    expect(c.calls).toBeLessThanOrEqual(2);
    expect(calls.get('slow')).toBe(1 + c.calls);
    expect(c.p50Ms).toBeGreaterThanOrEqual(SLOW_MS);
    expect(report.verdict).toBe('pass');
  }, 60_000);

  it('negative control: a workload with no read-only tool times none and calls nothing it does not plan', async () => {
    const { report } = await runWith('    - { tool: write }');
    expect(report.calibration!.toolCall).toBeUndefined();
    expect(calls.get('lookup')).toBeUndefined();
    expect(calls.get('write')).toBe(3);
  }, 60_000);

  it('a read-only tool that errors is reported, not judged: the verdict stays the thresholds', async () => {
    const { report } = await runWith('    - { tool: broken, weight: 0.001 }\n    - { tool: write, weight: 100 }');
    const c = report.calibration!;
    expect(c.toolCall).toMatchObject({ tool: 'broken', calls: 5, errors: 5, error: 'lookup table missing' });
    expect(c.tooLoaded).toBeUndefined();
    expect(report.verdict).toBe('pass');
  }, 60_000);
});
