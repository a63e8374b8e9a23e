// faultline limits: the largest request and result a transport carries to and from the reference server,
// printed and written as limits.json in --out.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Session } from '../client/session.ts';
import { ServerHandle } from '../targets/child-target.ts';
import { discoverLimits, type LimitsReport } from './limits-probe.ts';
import { EXIT } from './user-error.ts';

export interface LimitsFlags {
  out: string;
  maxMb: number;
  timeoutMs: number;
}

export async function limitsCommand(flags: LimitsFlags): Promise<number> {
  const server = await ServerHandle.start({ seed: 1 });
  const session = new Session({ url: server.url });
  let report: LimitsReport;
  try {
    report = await discoverLimits(session, 'http', {
      fromBytes: 256 * 1024,
      ceilingBytes: flags.maxMb * 1024 * 1024,
      bisect: 12,
      timeoutMs: flags.timeoutMs,
    });
  } finally {
    await session.close();
    await server.stop();
  }
  await mkdir(flags.out, { recursive: true });
  const file = join(flags.out, 'limits.json');
  await writeFile(file, `${JSON.stringify({ schemaVersion: 1, transports: [report] }, null, 2)}\n`);
  const mb = (b: number | null) => (b === null ? 'none up to the ceiling' : `${(b / 1048576).toFixed(2)} MiB`);
  for (const [dir, l] of [
    ['request', report.request],
    ['result', report.result],
  ] as const) {
    process.stdout.write(
      `${report.transport} ${dir}: largest ok ${mb(l.largestOkBytes)}, first failure ${mb(l.firstFailBytes)}${l.failure ? ` (${l.failure})` : ''}, ${l.probes} probes\n`,
    );
  }
  process.stderr.write(`faultline: limits in ${file}\n`);
  return EXIT.ok;
}
