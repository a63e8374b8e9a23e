// The toxic registry: adding a toxic is adding a file and one entry here.
import type { ToxicKind } from '../toxic.ts';
import { bandwidth } from './bandwidth.ts';
import { latency } from './latency.ts';
import { limitData } from './limit-data.ts';
import { noop } from './noop.ts';
import { resetPeer } from './reset-peer.ts';
import { slicer } from './slicer.ts';
import { slowClose } from './slow-close.ts';
import { timeout } from './timeout.ts';

export const toxicKinds: ReadonlyMap<string, ToxicKind> = new Map(
  [noop, latency, bandwidth, slicer, slowClose, timeout, resetPeer, limitData].map((kind) => [kind.type, kind]),
);
