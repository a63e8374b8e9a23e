// The library (`import … from 'faultline'`): profiles in code, a whole run, and the building blocks of one.
// Each export is a thin wrapper in src/api/ over the module that does the work.

export {
  type ClientOptions,
  type ClientTarget,
  createClient,
  type FaultlineClient,
  type OpResult,
} from './api/client.ts';
export { type DefinedProfile, defineProfile, type ProfileInput } from './api/define-profile.ts';
export { type FaultlineEnvironment, type StartEnvironmentOptions, startEnvironment } from './api/environment.ts';
export {
  type NetworkBackend,
  type NetworkBackendOptions,
  type NetworkBackendSpec,
  type ProxyEndpoint,
  startNetwork,
  type Upstream,
} from './api/network.ts';
export { type ServerHandle, type ServerOptions, startReferenceServer } from './api/reference-server.ts';
export {
  type ProfileResult,
  type ProfileSource,
  type RunProfileOptions,
  resolveProfile,
  runProfile,
} from './api/run-profile.ts';
export { type FaultSpec, type WithFaultOptions, withFault } from './api/with-fault.ts';
export type { ClientFactory, ClientModuleContext, UserClient } from './client/module-client.ts';
export type { History } from './core/history.ts';
export { ProfileError } from './core/profile-error.ts';
export type { ProfileReport, Verdict } from './measure/run-report.ts';
export type { ThresholdResult } from './measure/thresholds.ts';
export type { Metrics } from './measure/types.ts';
export type { Profile } from './profile/schema.ts';
