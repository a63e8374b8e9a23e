// Shared by the backends: create-or-replace a proxy through the API.
import { type CreateProxy, type ProxyInfo, type ToxiproxyApi, ToxiproxyApiError } from './toxiproxy-api.ts';

export async function replaceProxy(api: ToxiproxyApi, body: CreateProxy): Promise<ProxyInfo> {
  try {
    return await api.createProxy(body);
  } catch (error) {
    if (!(error instanceof ToxiproxyApiError) || error.status !== 409) throw error;
    await api.deleteProxy(body.name);
    return api.createProxy(body);
  }
}

/** The port of a "host:port" listen address. */
export function listenPort(listen: string): number {
  return Number(listen.slice(listen.lastIndexOf(':') + 1));
}
