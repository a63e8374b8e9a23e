// Leak scan: planted secret canaries that reached content the model sees.
import type { History } from '../core/history.ts';
import type { LeakFinding } from './types.ts';

export interface LeakOptions {
  canaries?: string[];
  /** Also scan attempt error messages (default true). */
  scanAttemptMessages?: boolean;
}

/** One finding per (op, place, canary); the count of leaks is the number of findings. */
export function findLeaks(history: History, options: LeakOptions = {}): LeakFinding[] {
  const canaries = (options.canaries ?? []).filter((c) => c.length > 0);
  if (canaries.length === 0) return [];
  const findings: LeakFinding[] = [];
  const seen = new Set<string>();
  const scan = (opId: string, where: LeakFinding['where'], text: string | undefined) => {
    if (!text) return;
    for (const canary of canaries) {
      const key = `${opId}\u0000${where}\u0000${canary}`;
      if (seen.has(key) || !text.includes(canary)) continue;
      seen.add(key);
      findings.push({ opId, where, canary: mask(canary) });
    }
  };
  for (const op of history.ops) scan(op.opId, 'visible', op.visible);
  if (options.scanAttemptMessages ?? true) {
    for (const a of history.attempts) scan(a.opId, 'attempt-message', a.message);
  }
  return findings;
}

/** Keeps enough of the canary to recognise it, not enough to paste it anywhere. */
export function mask(secret: string): string {
  if (secret.length <= 4) return '*'.repeat(secret.length);
  return `${secret.slice(0, 4)}${'*'.repeat(Math.min(8, secret.length - 4))}`;
}
