// Conformance under chaos: the official suite's server scenarios against a target, first clean and then under each
// fault, through the same two seams a run uses for an HTTP server (a Toxiproxy proxy for network faults, the edge
// rules for HTTP faults; here the edge sits in an HTTP proxy because the client is the suite's, not ours). The clean
// pass goes through both proxies too, so whatever they change shows in the baseline and not as a fault's doing.
import { join } from 'node:path';
import { RandomStream } from '../core/random.ts';
import type { FaultEnvironment } from '../faults/context.ts';
import { EdgeController } from '../faults/edge/http/controller.ts';
import { startEdgeProxy } from '../faults/edge/http/edge-proxy.ts';
import { StdioEdgeController } from '../faults/edge/stdio/controller.ts';
import { findFaultKind } from '../faults/registry.ts';
import { createNetworkBackend } from '../network/factory.ts';
import { RemoteTarget } from '../targets/remote-target.ts';
import type { ChaosFault } from './chaos-faults.ts';
import { runScenarios, type ScenarioResult } from './scenarios.ts';
import type { ConformanceTool } from './tool.ts';

export interface ChaosPass {
  /** "clean", or the fault's label. */
  label: string;
  /** What the fault did on the wire during the pass (toxic actions, edge exchanges); null for clean or uncountable. */
  hits: number | null;
  results: ScenarioResult[];
}

export interface ChaosRunOptions {
  tool: ConformanceTool;
  /** The target's MCP endpoint. */
  url: string;
  faults: readonly ChaosFault[];
  scenarios: readonly string[];
  seed: number;
  outDir: string;
  /** How long one suite process may take (one scenario, or the whole clean pass when none is named). */
  timeoutMs: number;
  onPass?: (label: string) => void;
}

export async function runConformanceUnderChaos(options: ChaosRunOptions): Promise<ChaosPass[]> {
  const target = new URL(options.url);
  const backend = await createNetworkBackend('embedded', { seed: options.seed });
  const edge = new EdgeController();
  let proxy: Awaited<ReturnType<typeof startEdgeProxy>> | undefined;
  try {
    const link = await backend.createProxy('mcp', { host: target.hostname, port: Number(target.port) });
    proxy = await startEdgeProxy(`http://${link.host}:${link.port}`, edge);
    const url = `${proxy.url}${target.pathname}${target.search}`;
    const env: FaultEnvironment = {
      server: new RemoteTarget(options.url),
      network: { api: backend.api, mcpProxy: link.name, counters: backend.counters },
      edge,
      stdio: new StdioEdgeController(),
    };
    const passes: ChaosPass[] = [];
    const pass = async (label: string, dir: string, scenarios: readonly string[]) => {
      options.onPass?.(label);
      return runScenarios(options.tool, url, join(options.outDir, dir), scenarios, options.timeoutMs);
    };
    const clean = await pass('clean', 'clean', options.scenarios);
    passes.push({ label: 'clean', hits: null, results: clean });
    // A scenario that fails clean has nothing for a fault to take away: the faulted passes run the others.
    const covered = clean.filter((r) => r.failed === 0).map((r) => r.scenario);
    for (const [i, fault] of options.faults.entries()) {
      const id = `c${i}-${fault.kind}`;
      const applied = await findFaultKind(fault.seam, fault.kind)!.apply(fault.params, {
        env,
        id,
        random: new RandomStream(options.seed, `conformance/${id}`),
      });
      try {
        const results = await pass(fault.label, id, covered);
        passes.push({ label: fault.label, hits: await applied.hits(), results });
      } finally {
        await applied.remove();
      }
    }
    return passes;
  } finally {
    await proxy?.close();
    await backend.close();
  }
}
