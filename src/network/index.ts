export { ContainerRuntimeUnavailableError, type NetworkBackend, NetworkBackendError } from './backend.ts';
export { createNetworkBackend } from './factory.ts';
export * from './toxiproxy-api.ts';
