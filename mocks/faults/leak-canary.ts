// An error answer stuffed with planted secrets (bearer token, password, stack trace, SQL, absolute path) in the
// body and headers, as careless upstreams do. The dependency does not act. See mocks/canaries.ts.
import { z } from 'zod';
import { CANARIES } from '../canaries.ts';
import { httpStatus } from './status.ts';
import { baseFaultSpec, defineFault } from './types.ts';

export const leakCanary = defineFault(
  baseFaultSpec
    .extend({ kind: z.literal('leak-canary'), status: httpStatus.default(500).describe('HTTP status of the answer') })
    .describe('an error answer stuffed with planted secrets in body and headers (the dependency does not act)'),
  ['security'],
  async (spec, ctx) => {
    ctx.hit();
    return Response.json(
      {
        error: {
          message: `upstream failure while authenticating with ${CANARIES.password}`,
          stack: CANARIES.stackTrace,
          query: CANARIES.sql,
          config: CANARIES.absolutePath,
          authorization: CANARIES.bearerToken,
        },
      },
      {
        status: spec.status,
        headers: {
          'x-debug-authorization': CANARIES.bearerToken,
          'x-debug-query': CANARIES.sql,
          'x-debug-config': CANARIES.absolutePath,
        },
      },
    );
  },
);
