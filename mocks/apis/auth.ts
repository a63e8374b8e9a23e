// Token service of the dependencies (OAuth client-credentials style): the server trades its client secret for a
// short-lived access token. Like a JWT's `iat`, the token carries its issue time, so every API can check its age
// (the `auth-expiry` fault does) without shared state.
import {
  CLIENT_SECRET,
  CLIENT_SECRET_HEADER,
  DEPENDENCY_PATHS,
  type TokenGrant,
} from '../../src/core/dependency-contract.ts';
import { apiError, defineApi, post } from './types.ts';

let minted = 0;

/** When the token was issued (epoch ms); 0 for the initial token and anything not minted here. */
export function issuedAtOf(token: string | undefined): number {
  const m = /^fl_tok_(\d+)_\d+$/.exec(token ?? '');
  return m ? Number(m[1]) : 0;
}

export function bearerOf(request: Request): string | undefined {
  return /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
}

function grant(request: Request): Response {
  if (request.headers.get(CLIENT_SECRET_HEADER) !== CLIENT_SECRET) {
    return apiError(401, 'invalid_client', 'Client authentication failed');
  }
  const issued = Date.now();
  const body: TokenGrant = { access_token: `fl_tok_${issued}_${++minted}`, token_type: 'Bearer' };
  return Response.json(body);
}

export const authApi = defineApi('auth', [post(DEPENDENCY_PATHS.token, grant)]);
