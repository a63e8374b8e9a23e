// Token service of the dependencies (OAuth client-credentials style): the server trades its client secret for a
// short-lived access token. Like a JWT's `iat`, the token carries its issue time, so every API can check its age
// (the `auth-expiry` fault does) without shared state.
import { HttpResponse } from 'msw';
import { apiError, DEPENDENCY_URLS, type DependencyApi } from './types.ts';

export const CLIENT_SECRET = 'faultline-client-secret';
/** The token the server starts with, issued "at the beginning of time". */
export const INITIAL_TOKEN = 'faultline-service';

let minted = 0;

/** When the token was issued (epoch ms); 0 for the initial token and anything not minted here. */
export function issuedAtOf(token: string | undefined): number {
  const m = /^fl_tok_(\d+)_\d+$/.exec(token ?? '');
  return m ? Number(m[1]) : 0;
}

export function bearerOf(request: Request): string | undefined {
  return /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
}

export const authApi: DependencyApi = {
  name: 'auth',
  baseUrl: DEPENDENCY_URLS.auth,
  async resolve(request) {
    const url = new URL(request.url);
    if (url.pathname !== '/v1/token' || request.method !== 'POST')
      return apiError(404, 'not_found', 'Unknown endpoint');
    if (request.headers.get('x-client-secret') !== CLIENT_SECRET)
      return apiError(401, 'invalid_client', 'Client authentication failed');
    const issued = Date.now();
    return HttpResponse.json({ access_token: `fl_tok_${issued}_${++minted}`, token_type: 'Bearer' });
  },
};
