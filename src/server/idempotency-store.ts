// The server's own idempotency store, for dependencies that do not deduplicate (notifications). Same key and same
// arguments: the stored result, no second dependency call; a concurrent duplicate waits for the first; same key
// with other arguments: RESOURCE.CONFLICT. A failure that may have taken effect keeps the key "uncertain": the
// next attempt first asks `recover` whether the effect exists before executing again.
import { toolFailure } from './errors.ts';

type Entry<T> =
  | { state: 'pending'; argsKey: string; promise: Promise<T> }
  | { state: 'done'; argsKey: string; result: T }
  | { state: 'uncertain'; argsKey: string };

export interface IdempotentRun<T> {
  execute: () => Promise<T>;
  /** Looks the effect up after an uncertain failure; undefined when it does not exist. */
  recover?: () => Promise<T | undefined>;
  /** Whether a failure may have taken effect. */
  isUncertain: (error: unknown) => boolean;
}

export class IdempotencyStore<T> {
  private readonly entries = new Map<string, Entry<T>>();

  async run(key: string, argsKey: string, run: IdempotentRun<T>): Promise<{ result: T; replayed: boolean }> {
    const entry = this.entries.get(key);
    if (entry && entry.argsKey !== argsKey) {
      throw toolFailure(
        'RESOURCE.CONFLICT',
        'This idempotency_key was already used with different arguments; use a new key for a new operation.',
        { details: { idempotencyKey: key } },
      );
    }
    if (entry?.state === 'done') return { result: entry.result, replayed: true };
    if (entry?.state === 'pending') return { result: await entry.promise, replayed: true };
    if (entry?.state === 'uncertain' && run.recover) {
      const found = await run.recover();
      if (found !== undefined) {
        this.entries.set(key, { state: 'done', argsKey, result: found });
        return { result: found, replayed: true };
      }
    }
    const promise = run.execute();
    this.entries.set(key, { state: 'pending', argsKey, promise });
    try {
      const result = await promise;
      this.entries.set(key, { state: 'done', argsKey, result });
      return { result, replayed: false };
    } catch (error) {
      if (run.isUncertain(error)) this.entries.set(key, { state: 'uncertain', argsKey });
      else this.entries.delete(key);
      throw error;
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
