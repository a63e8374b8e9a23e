// faultline conformance: the official MCP conformance suite's server scenarios against a target (the reference
// server by default, in the chosen era), clean and then under each fault, as a table of scenario x fault.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChaosFault, chaosFault, DEFAULT_CHAOS } from '../conformance/chaos-faults.ts';
import { runConformanceUnderChaos } from '../conformance/chaos-run.ts';
import { conformanceTable, degradations } from '../conformance/table.ts';
import { CONFORMANCE_VERSION, conformanceTool, defaultToolDir } from '../conformance/tool.ts';
import { SERVER_PROTOCOLS, type ServerProtocol } from '../core/front-end.ts';
import { startReferenceServer } from '../server/reference-server.ts';
import { assertLoopbackUrl } from '../targets/remote-target.ts';

export interface ConformanceFlags {
  targetUrl?: string;
  protocol: ServerProtocol;
  fault?: string[];
  scenario?: string[];
  out: string;
  seed: number;
  node?: string;
  toolDir?: string;
  timeoutS: number;
  failOnDegrade?: boolean;
  allowNonLoopback?: boolean;
}

const say = (line: string) => process.stderr.write(`faultline conformance: ${line}\n`);

export async function conformanceCommand(flags: ConformanceFlags): Promise<number> {
  const faults: ChaosFault[] = (flags.fault?.length ? flags.fault : DEFAULT_CHAOS).map(chaosFault);
  if (flags.targetUrl) assertLoopbackUrl('--target-url', flags.targetUrl, flags.allowNonLoopback === true);
  const tool = conformanceTool(flags.toolDir ?? defaultToolDir(), flags.node, say);
  const reference = flags.targetUrl
    ? undefined
    : await startReferenceServer({
        seed: flags.seed,
        host: '127.0.0.1',
        port: 0,
        eventStore: true,
        frontEnd: SERVER_PROTOCOLS[flags.protocol],
      });
  const url = flags.targetUrl ?? reference!.http.url;
  try {
    mkdirSync(flags.out, { recursive: true });
    const passes = await runConformanceUnderChaos({
      tool,
      url,
      faults,
      scenarios: flags.scenario ?? [],
      seed: flags.seed,
      outDir: join(flags.out, 'suite'),
      timeoutMs: flags.timeoutS * 1000,
      onPass: (label) => say(`pass: ${label}`),
    });
    const degraded = degradations(passes);
    const target = flags.targetUrl ?? `reference server (protocol: ${flags.protocol})`;
    const table = conformanceTable(passes);
    const markdown = [
      `# Conformance under chaos`,
      '',
      `@modelcontextprotocol/conformance ${CONFORMANCE_VERSION}, server scenarios, against ${target}, seed ${flags.seed}.`,
      'Each cell: checks passed / checks judged. ✗: fewer than the clean pass. "fails clean": not covered by the target.',
      '',
      table,
      '',
      ...(degraded.length === 0
        ? ['No scenario degraded under any fault.']
        : [
            '## Degraded',
            '',
            ...degraded.map(
              (d) => `- ${d.scenario} under ${d.fault}: ${d.passed}/${d.clean} (${d.failure ?? 'failed'})`,
            ),
          ]),
      '',
    ].join('\n');
    writeFileSync(join(flags.out, 'conformance.md'), markdown);
    writeFileSync(
      join(flags.out, 'conformance.json'),
      `${JSON.stringify({ suite: CONFORMANCE_VERSION, target, seed: flags.seed, passes, degraded }, null, 2)}\n`,
    );
    process.stdout.write(`${table}\n\n${degraded.length} degraded cell(s); ${join(flags.out, 'conformance.md')}\n`);
    return flags.failOnDegrade && degraded.length > 0 ? 1 : 0;
  } finally {
    await reference?.close();
  }
}
