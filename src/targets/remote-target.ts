// A server outside the harness's process tree (docker-compose, another machine), reached by URL. With an admin
// endpoint (faultline server --admin-port) the control operations go over HTTP (AdminClient) and every change of
// the desired fault state is pushed there; without one there are no dependency faults and no ledger. The harness
// never owns its process, so kill and restart refuse. Kind http is the same without an admin endpoint: a server we
// did not write, whose effects come from an attached effect source, if any (effect-source.ts).

import { AdminClient } from '../control/admin-http.ts';
import { send } from '../control/control.ts';
import type { Quiescence } from '../control/ops/quiescence.ts';
import type { DecisionRecord } from '../core/history.ts';
import type { HitCounts } from '../core/hit-counter.ts';
import type { Effect } from '../core/ledger.ts';
import type { LoopLag } from '../core/loop-lag.ts';
import { isLoopbackHost } from '../core/loopback.ts';
import { appliedAtOf, DesiredFaultState } from '../under-test/desired-state.ts';
import { type ServerUnderTest, TargetCapabilityError } from '../under-test/target.ts';
import { type EffectSink, type EffectSource, ForeignEffects } from './effect-source.ts';

export interface RemoteTargetSpec {
  url: string;
  admin?: string;
  adminTokenEnv: string;
}

/** Checks a url target before anything connects: loopback unless allowed, and a token when admin is set. */
export function remoteTargetFrom(
  spec: RemoteTargetSpec,
  allowNonLoopback: boolean,
  env: NodeJS.ProcessEnv = process.env,
): RemoteTarget {
  for (const [what, url] of [
    ['target.url', spec.url],
    ['target.admin', spec.admin],
  ] as const) {
    if (url) assertLoopbackUrl(what, url, allowNonLoopback);
  }
  if (!spec.admin) return new RemoteTarget(spec.url);
  const token = env[spec.adminTokenEnv];
  if (!token) {
    throw new TargetConfigError(
      `target.admin is set but the environment variable ${spec.adminTokenEnv} (the admin bearer token) is empty`,
    );
  }
  return new RemoteTarget(spec.url, { url: spec.admin, token });
}

/** A URL the run would send faults to must be loopback unless the user allowed otherwise. */
export function assertLoopbackUrl(what: string, url: string, allowNonLoopback: boolean): void {
  if (!allowNonLoopback && !isLoopbackHost(new URL(url).hostname)) {
    throw new TargetConfigError(
      `${what} ${url}: not a loopback address; pass --allow-non-loopback to run faults against it`,
    );
  }
}

/** A target that cannot be used as configured (one line for the user). */
export class TargetConfigError extends Error {
  /** The CLI prints it as one line and exits 2. */
  readonly userFacing = true;
  constructor(message: string) {
    super(message);
    this.name = 'TargetConfigError';
  }
}

/** A server at a URL the user gave that the client could not connect to: the URL and why, in one line. */
export function couldNotConnect(url: string, error: Error): TargetConfigError {
  return new TargetConfigError(`target.url ${url}: could not connect (${error.message.slice(0, 200)})`);
}

export class RemoteTarget implements ServerUnderTest, EffectSink {
  private readonly admin: AdminClient | undefined;
  private readonly effects = new ForeignEffects();

  constructor(
    readonly url: string,
    admin?: { url: string; token: string },
    /** The profile's target kind, for error messages (url, or http for a server we did not write). */
    private readonly kind: 'url' | 'http' = 'url',
  ) {
    this.admin = admin ? new AdminClient(admin.url.replace(/\/+$/, ''), admin.token) : undefined;
  }

  get hasControl(): boolean {
    return this.admin !== undefined;
  }

  readonly desired = new DesiredFaultState(async (request) =>
    appliedAtOf(
      await send(
        this.control(request.op === 'setBehaviour' ? 'server-behaviour faults' : 'dependency faults'),
        request,
      ),
    ),
  );

  private control(operation: string): AdminClient {
    if (!this.admin) throw new TargetCapabilityError(operation, 'control', this.kind);
    return this.admin;
  }

  /** Without an admin endpoint or an effect source there is no ledger to read: the effects are unknown, not zero. */
  get observesEffects(): boolean {
    return this.admin !== undefined || this.effects.observable;
  }

  attachEffects(source: EffectSource): void {
    this.effects.attachEffects(source);
  }

  async ledger(): Promise<Effect[]> {
    return this.admin ? this.admin.call('ledger') : this.effects.ledger();
  }

  async decisions(): Promise<DecisionRecord[]> {
    return this.admin ? this.admin.call('decisions') : [];
  }

  /** Its own counts since the last reset (the run resets it first). */
  async faultHits(): Promise<HitCounts> {
    return this.control('fault hits').call('faultHits');
  }

  /** Without an admin endpoint the harness cannot see its handlers. */
  async quiescence(): Promise<Quiescence | undefined> {
    return this.admin ? this.admin.call('quiescence') : undefined;
  }

  /** Only a reference server's admin endpoint can tell (an older one answers 404: not known). */
  async loopLag(): Promise<LoopLag | undefined> {
    return this.admin ? ((await this.admin.call('loopLag').catch(() => null)) ?? undefined) : undefined;
  }

  /** Back to empty: the admin endpoint resets the server; without one only the effect source can forget. */
  async reset(): Promise<void> {
    this.desired.clear();
    if (this.admin || !this.effects.observable) await this.control('reset').call('reset');
    else await this.effects.reset();
  }

  /** Unknown from here: a remote server is assumed to run. */
  get alive(): boolean {
    return true;
  }

  kill(): boolean {
    throw new TargetCapabilityError('fault kind crash', 'restart', this.kind);
  }

  /** Nothing to boot: the harness cannot restart it. */
  prepareRestart(): void {}

  async restart(): Promise<void> {
    throw new TargetCapabilityError('fault kind restart', 'restart', this.kind);
  }
}
