// The order in which API changes apply, standing in for Toxiproxy's locks. A change to one proxy (its toxics, its
// addresses) waits only for earlier changes to that proxy, as Go's per-proxy and per-toxic-collection locks; a
// change to the collection (create, delete, populate, reset) waits for every earlier change, and every later
// change waits for it. Reads take no turn. A change takes its turn once its request body is in, so a slow client
// delays nobody (real Toxiproxy reads a toxic's body while holding the proxy's toxic lock).
const settled: Promise<void> = Promise.resolve();

export class ChangeOrder {
  private collection: Promise<void> = settled;
  private readonly proxies = new Map<string, Promise<void>>();

  /** Runs `change` in its turn; `proxy` undefined means a change to the whole collection. `change` must not throw. */
  run(proxy: string | undefined, change: () => Promise<void>): Promise<void> {
    if (proxy === undefined) {
      const earlier = [this.collection, ...this.proxies.values()];
      this.proxies.clear();
      this.collection = Promise.all(earlier).then(change);
      return this.collection;
    }
    const turn = Promise.all([this.collection, this.proxies.get(proxy) ?? settled]).then(change);
    this.proxies.set(proxy, turn);
    turn.then(() => {
      if (this.proxies.get(proxy) === turn) this.proxies.delete(proxy);
    });
    return turn;
  }
}
