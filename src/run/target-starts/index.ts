// Each target kind's start (one file each), by the kind's name: the type requires one for every kind the profile's
// `target:` union declares (under-test/kinds/), so a new kind without a start does not compile.
import type { Profile } from '../../profile/schema.ts';
import { dropSpareChild, warmSpareChild } from '../../targets/spare-child.ts';
import { startCassette } from './cassette.ts';
import { startHttp } from './http.ts';
import { startReference } from './reference.ts';
import { startReferenceStdio } from './reference-stdio.ts';
import type { StartContext, StartedServer, TargetStart } from './start.ts';
import { startStdio } from './stdio.ts';
import { startUrl } from './url.ts';

type Target = Profile['target'];

const STARTS: { [K in Target['kind']]: TargetStart<Extract<Target, { kind: K }>> } = {
  reference: startReference,
  'reference-stdio': startReferenceStdio,
  url: startUrl,
  http: startHttp,
  stdio: startStdio,
  cassette: startCassette,
};

export function startTarget(target: Target, ctx: StartContext): Promise<StartedServer> {
  return (STARTS[target.kind] as TargetStart<Target>)(target, ctx);
}

/** What a kind can get ready before its next start, while another run finishes: the reference server forks its child. */
const WARM_UPS: { [K in Target['kind']]?: () => void } = { reference: warmSpareChild };

/** Gets ready ahead what the next start of this target would otherwise pay for in its run's set-up. */
export function warmTargetStart(target: Target): void {
  WARM_UPS[target.kind]?.();
}

/** Lets go of whatever warmTargetStart readied and no start took (the suite is over). */
export function dropWarmTargetStarts(): Promise<void> {
  return dropSpareChild();
}
