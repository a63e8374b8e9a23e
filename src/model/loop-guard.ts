// Stops retry loops: a call that already failed with an error code is not sent again with the same tool and
// arguments, whoever proposes it (the model's self-correction, a blind retry).
import { stableHash } from '../core/stable-hash.ts';

export class LoopGuard {
  private readonly failed = new Set<string>();

  private key(tool: string, args: Record<string, unknown>, errorCode: string): string {
    return `${tool}\u0000${stableHash(args)}\u0000${errorCode}`;
  }

  recordFailure(tool: string, args: Record<string, unknown>, errorCode: string): void {
    this.failed.add(this.key(tool, args, errorCode));
  }

  /** True when this call already failed with this code: sending it again would loop. */
  wouldRepeat(tool: string, args: Record<string, unknown>, lastErrorCode: string): boolean {
    return this.failed.has(this.key(tool, args, lastErrorCode));
  }
}
