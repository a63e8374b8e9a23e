// Types for dist-state.js, which bin/faultline.js (plain JavaScript, run before any TypeScript loader) and the
// benches share.
export function compiledEntry(root: URL): URL;
export function compiledIsCurrent(root: URL): boolean;
