export { EMBEDDED_VERSION } from './api.ts';
export {
  type EmbeddedToxiproxy,
  type EmbeddedToxiproxyOptions,
  RANDOM_STREAM,
  startEmbeddedToxiproxy,
} from './server.ts';
export type { ToxicJson } from './toxic.ts';
export { toxicKinds } from './toxics/index.ts';
