// noop: passthrough. Toxiproxy keeps a hidden one at the head of every chain; users may add visible ones.
import type { ToxicKind } from '../toxic.ts';

export const noop: ToxicKind = { type: 'noop', goName: 'NoopToxic', attributes: {}, docs: {} };
