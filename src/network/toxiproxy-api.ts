// A typed client for Toxiproxy's HTTP API (real Toxiproxy 2.x or Faultline's embedded server). Unlike
// toxiproxy-node-client it keeps the HTTP status and the server's error message, updates with PATCH and lists
// toxics.

type ToxicStream = 'upstream' | 'downstream';
/** A toxic type name as Toxiproxy spells it (src/toxiproxy/toxics has the embedded server's); the server refuses others. */
type ToxicType = string;

export interface ToxicInfo {
  name: string;
  type: ToxicType;
  stream: ToxicStream;
  toxicity: number;
  attributes: Record<string, number>;
}

export interface ProxyInfo {
  name: string;
  listen: string;
  upstream: string;
  enabled: boolean;
  toxics: ToxicInfo[];
}

export interface CreateProxy {
  name: string;
  listen?: string;
  upstream: string;
  enabled?: boolean;
}

export type UpdateProxy = Partial<Pick<ProxyInfo, 'listen' | 'upstream' | 'enabled'>>;

export interface CreateToxic {
  type: ToxicType;
  /** Defaults to `<type>_<stream>`. */
  name?: string;
  /** Defaults to downstream. */
  stream?: ToxicStream;
  /** Defaults to 1. */
  toxicity?: number;
  attributes?: Record<string, number>;
}

export interface UpdateToxic {
  toxicity?: number;
  attributes?: Record<string, number>;
}

/** A non-2xx answer (status is the HTTP status) or a transport failure (status 0). */
export class ToxiproxyApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** The server's own message (the `error` field of its JSON body), e.g. "toxic already exists". */
    readonly serverMessage: string,
    readonly method: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'ToxiproxyApiError';
  }
}

export interface ToxiproxyApiOptions {
  /** Per-request timeout in ms (default 10 s). */
  timeoutMs?: number;
}

export class ToxiproxyApi {
  readonly url: string;
  private readonly timeoutMs: number;

  constructor(url: string, options: ToxiproxyApiOptions = {}) {
    this.url = url.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** The version string, e.g. "2.12.0" (or "2.12.0+faultline" from the embedded server). */
  async version(): Promise<string> {
    const body = await this.request<{ version: string }>('GET', '/version');
    return body.version;
  }

  async listProxies(): Promise<Record<string, ProxyInfo>> {
    return this.request('GET', '/proxies');
  }

  async createProxy(body: CreateProxy): Promise<ProxyInfo> {
    return this.request('POST', '/proxies', body);
  }

  async getProxy(name: string): Promise<ProxyInfo> {
    return this.request('GET', proxyPath(name));
  }

  async updateProxy(name: string, body: UpdateProxy): Promise<ProxyInfo> {
    return this.request('PATCH', proxyPath(name), body);
  }

  async deleteProxy(name: string): Promise<void> {
    await this.request('DELETE', proxyPath(name));
  }

  /** Creates or replaces (when listen/upstream differ) each proxy. */
  async populate(proxies: CreateProxy[]): Promise<ProxyInfo[]> {
    const body = await this.request<{ proxies: ProxyInfo[] | null }>('POST', '/populate', proxies);
    return body.proxies ?? [];
  }

  /** Re-enables every proxy and removes every toxic. */
  async reset(): Promise<void> {
    await this.request('POST', '/reset');
  }

  async listToxics(proxy: string): Promise<ToxicInfo[]> {
    return this.request('GET', `${proxyPath(proxy)}/toxics`);
  }

  async addToxic(proxy: string, body: CreateToxic): Promise<ToxicInfo> {
    return this.request('POST', `${proxyPath(proxy)}/toxics`, body);
  }

  async getToxic(proxy: string, toxic: string): Promise<ToxicInfo> {
    return this.request('GET', toxicPath(proxy, toxic));
  }

  async updateToxic(proxy: string, toxic: string, body: UpdateToxic): Promise<ToxicInfo> {
    return this.request('PATCH', toxicPath(proxy, toxic), body);
  }

  async removeToxic(proxy: string, toxic: string): Promise<void> {
    await this.request('DELETE', toxicPath(proxy, toxic));
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url + path, {
        method,
        headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs} ms`
          : (cause?.code ?? cause?.message ?? (error as Error).message);
      throw new ToxiproxyApiError(`${method} ${path}: cannot reach ${this.url} (${reason})`, 0, '', method, path);
    }
    const text = await response.text();
    if (!response.ok) {
      // Error bodies are JSON sent as text/plain (Go's http.Error): parse whatever the header says.
      let message = text.trim() || response.statusText;
      try {
        const parsed = JSON.parse(text) as { error?: unknown };
        if (typeof parsed.error === 'string') message = parsed.error;
      } catch {}
      const summary = `${method} ${path}: HTTP ${response.status}: ${message}`;
      throw new ToxiproxyApiError(summary, response.status, message, method, path);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

function proxyPath(name: string): string {
  return `/proxies/${encodeURIComponent(name)}`;
}

function toxicPath(proxy: string, toxic: string): string {
  return `${proxyPath(proxy)}/toxics/${encodeURIComponent(toxic)}`;
}
