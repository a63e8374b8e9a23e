// Which build of Faultline a bench measures: dist/ when it is a build of the current sources (compiled, as
// `faultline` and the library run), else the sources through tsx, whose transform (keepNames: a defineProperty for
// every closure made) cost the harness 2 to 10 % of its rate at c=16 and the embedded Toxiproxy's API about 2 % of
// its CPU per request here.
import { compiledIsCurrent } from '../bin/dist-state.js';

export const FROM_DIST = compiledIsCurrent(new URL('..', import.meta.url));

/** One module of src/ (a path under it, without the extension), from the build FROM_DIST names. */
export const shippedModule = (path: string): Promise<unknown> =>
  import(FROM_DIST ? `../dist/src/${path}.js` : `../src/${path}.ts`);

/** A line saying which build ran, for the bench's output. */
export const buildMeasured = (what: string): string =>
  FROM_DIST
    ? `${what} as built in dist/ (compiled, as faultline runs it)`
    : `${what} from its TypeScript sources through tsx (dist/ is older than src/: npm run build to measure it as it ships)`;
