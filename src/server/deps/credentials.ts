// The server's dependency credentials: trades the client secret for a fresh access token at the token service
// and hands it to the dependency client. Single-flight, so a burst of refresh requests costs one token.

import {
  CLIENT_SECRET,
  CLIENT_SECRET_HEADER,
  DEPENDENCY_PATHS,
  DEPENDENCY_URLS,
} from '../../core/dependency-contract.ts';
import { DependencyFailure } from '../errors.ts';
import type { DependencyClient } from './dependency-client.ts';

export class ServerCredentials {
  private inFlight?: Promise<void>;

  constructor(
    private readonly deps: DependencyClient,
    private readonly timeoutMs: number,
  ) {}

  refresh(): Promise<void> {
    this.inFlight ??= this.fetchToken().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchToken(): Promise<void> {
    const fail = (kind: 'status' | 'network' | 'bad-response', status?: number) =>
      new DependencyFailure(kind, 'auth', { status, sideEffecting: false, timeoutMs: this.timeoutMs });
    let response: Response;
    try {
      // The dependency client's own door to the world (the token service is one of its dependencies).
      response = await this.deps.fetch(`${DEPENDENCY_URLS.auth}${DEPENDENCY_PATHS.token}`, {
        method: 'POST',
        headers: { [CLIENT_SECRET_HEADER]: CLIENT_SECRET, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw fail('network');
    }
    if (!response.ok) throw fail('status', response.status);
    const body = (await response.json().catch(() => undefined)) as { access_token?: unknown } | undefined;
    if (typeof body?.access_token !== 'string') throw fail('bad-response', response.status);
    this.deps.token = body.access_token;
  }
}
