export {
  type BackendKind,
  ContainerRuntimeUnavailableError,
  type NetworkBackend,
  NetworkBackendError,
  type NetworkBackendOptions,
  type ProxyEndpoint,
  type Upstream,
} from './backend.ts';
export { assertContainerRuntime, PROXY_PORTS, startContainerBackend, TOXIPROXY_IMAGE } from './container.ts';
export { startEmbeddedBackend } from './embedded.ts';
export { connectExternalBackend } from './external.ts';
export { createNetworkBackend, type NetworkBackendSpec } from './factory.ts';
export * from './toxiproxy-api.ts';
