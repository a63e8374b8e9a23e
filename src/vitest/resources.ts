// What one chaos test started, torn down when the test ends: runs still going are aborted (a run tears down its
// own environment), then environments, servers and clients are closed, newest first. If the process exits
// before a teardown ran (a worker killed mid-test, process.exit in a test), the safety net SIGKILLs the server
// processes still known; a run's own server children exit when their parent does (IPC disconnect, stdin end).

/** Something a test started: close() ends it gracefully, kill() at once and synchronously. */
export interface Owned {
  close(): Promise<void>;
  kill(): void;
}

/** How long teardown waits for aborted runs and pending starts before closing what it has. */
const SETTLE_MS = 60_000;

const live = new Set<Resources>();
let safetyNet = false;

function installSafetyNet(): void {
  if (safetyNet) return;
  safetyNet = true;
  process.once('exit', () => {
    for (const resources of live) resources.killAll();
  });
}

export class Resources {
  private readonly owned: Owned[] = [];
  private readonly pending = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();

  constructor() {
    installSafetyNet();
    live.add(this);
  }

  add(owned: Owned): void {
    this.owned.push(owned);
  }

  /** Starts something with the test's abort signal and waits for it at teardown. */
  run<T>(start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.track(start(this.abort.signal));
  }

  /** Waits for something being started and owns it once it is. */
  async adopt<T>(starting: Promise<T>, own: (value: T) => Owned): Promise<T> {
    const value = await this.track(starting);
    this.add(own(value));
    return value;
  }

  async close(): Promise<void> {
    this.abort.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.pending]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, SETTLE_MS);
      }),
    ]);
    clearTimeout(timer);
    for (const owned of this.owned.splice(0).reverse()) await owned.close().catch(() => {});
    live.delete(this);
  }

  killAll(): void {
    for (const owned of this.owned) {
      try {
        owned.kill();
      } catch {
        // A target the harness does not own (a url target) cannot be killed; nothing of ours runs there.
      }
    }
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    const forget = () => this.pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }
}
