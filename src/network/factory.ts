// createNetworkBackend('embedded' | 'container' | 'http://127.0.0.1:8474', options): the --toxiproxy flag's value.
import { type NetworkBackend, NetworkBackendError, type NetworkBackendOptions } from './backend.ts';
import { startContainerBackend } from './container.ts';
import { startEmbeddedBackend } from './embedded.ts';
import { connectExternalBackend } from './external.ts';

export type NetworkBackendSpec = 'embedded' | 'container' | (string & {});

export async function createNetworkBackend(
  spec: NetworkBackendSpec,
  options: NetworkBackendOptions = {},
): Promise<NetworkBackend> {
  if (spec === 'embedded') return startEmbeddedBackend(options);
  if (spec === 'container') return startContainerBackend(options);
  if (/^https?:\/\//i.test(spec)) return connectExternalBackend(spec, options);
  throw new NetworkBackendError(
    `toxiproxy: unknown backend "${spec}" (expected embedded, container or an http:// URL)`,
    'external',
  );
}
