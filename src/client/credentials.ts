// The resilient client's credential hook: after an AUTH failure it asks the server to renew its dependency
// credentials (the reference server's `refresh_credentials` tool). Single-flight, and skipped when a refresh
// already finished after the failed attempt started, so a burst of AUTH failures costs one refresh, not one each.
import { epochMs } from '../core/clock.ts';
import { TRACE_META_KEY } from '../core/wire.ts';
import type { CredentialHook, PolicySession, RunSetup } from './policy.ts';

const REFRESH_TOOL = 'refresh_credentials';

class ServerCredentialRefresh implements CredentialHook {
  private inFlight?: Promise<boolean>;
  private lastDoneMs = Number.NEGATIVE_INFINITY;
  refreshes = 0;

  constructor(
    private readonly session: PolicySession,
    private readonly timeoutMs: number,
  ) {}

  async refresh(sinceMs: number): Promise<boolean> {
    if (this.lastDoneMs > sinceMs) return true;
    this.inFlight ??= this.run().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async run(): Promise<boolean> {
    this.refreshes++;
    try {
      const { connection } = await this.session.get();
      const result = await connection.client.callTool(
        { name: REFRESH_TOOL, arguments: {}, _meta: { [TRACE_META_KEY]: `refresh-${this.refreshes}` } },
        undefined,
        { timeout: this.timeoutMs },
      );
      if (result.isError) return false;
      this.lastDoneMs = epochMs();
      return true;
    } catch {
      return false;
    }
  }
}

/** The run's credential hook: when the profile allows refreshes and the server offers one (the reference server). */
export function credentialHookFor(run: RunSetup): CredentialHook | undefined {
  return run.client.credentialRefresh && run.serverRefreshesCredentials
    ? new ServerCredentialRefresh(run.session, run.client.attemptTimeoutMs)
    : undefined;
}
