// One proxied TCP connection: the client socket, the upstream socket and a link per direction. Closing follows
// Toxiproxy: when a link's chain ends it closes its destination outright (no half-close), which ends the link
// reading from that socket, which closes the other socket.
import type { Socket } from 'node:net';
import type { RandomStream } from '../core/random.ts';
import { ToxicLink } from './link.ts';
import type { ReusedReadBuffer } from './read-buffer.ts';
import type { Direction, ToxicModel } from './toxic.ts';

export class Connection {
  readonly links: Record<Direction, ToxicLink>;
  /** SO_LINGER=0: every close becomes an RST (set when reset_peer exists at connection start). */
  private lingerZero = false;
  private readonly closedSockets = new Set<Socket>();
  private done = false;

  constructor(
    readonly client: Socket,
    readonly upstream: Socket,
    random: RandomStream,
    private readonly onDone: (connection: Connection) => void,
    /** The upstream socket's reader (it was dialled with its `onread`). */
    upstreamReader?: ReusedReadBuffer,
  ) {
    const hooks = (direction: Direction) => ({
      random: (toxicName: string) => random.child(`${direction}/${toxicName}`),
      finished: (link: ToxicLink) => this.closeSocket(link === this.links.upstream ? upstream : client),
    });
    this.links = {
      upstream: new ToxicLink('upstream', client, upstream, hooks('upstream')),
      downstream: new ToxicLink('downstream', upstream, client, hooks('downstream'), upstreamReader),
    };
    this.watch(client, this.links.upstream);
    this.watch(upstream, this.links.downstream);
  }

  start(chains: Record<Direction, readonly ToxicModel[]>): void {
    if ([...chains.upstream, ...chains.downstream].some((toxic) => toxic.kind.resetsPeer)) this.lingerZero = true;
    this.links.upstream.start(chains.upstream);
    this.links.downstream.start(chains.downstream);
    this.client.resume();
  }

  /** Proxy disabled or removed: close both sockets now (RST when linger is zero), as Go's conn.Close(). */
  destroy(): void {
    for (const socket of [this.client, this.upstream]) {
      if (socket.destroyed) continue;
      if (this.lingerZero) socket.resetAndDestroy();
      else socket.destroy();
    }
  }

  private closeSocket(socket: Socket): void {
    if (this.closedSockets.has(socket)) return;
    this.closedSockets.add(socket);
    // Go's Close also makes the other link's read fail at once.
    (socket === this.client ? this.links.upstream : this.links.downstream).sourceEnded();
    if (socket.destroyed) return;
    if (this.lingerZero) socket.resetAndDestroy();
    else socket.end(() => socket.destroy());
  }

  private watch(socket: Socket, readingLink: ToxicLink): void {
    socket.on('error', () => readingLink.sourceEnded());
    socket.on('end', () => readingLink.sourceEnded());
    socket.on('close', () => {
      readingLink.sourceEnded();
      this.closedSockets.add(socket);
      if (this.client.destroyed && this.upstream.destroyed && !this.done) {
        this.done = true;
        this.links.upstream.abort();
        this.links.downstream.abort();
        this.onDone(this);
      }
    });
  }
}
