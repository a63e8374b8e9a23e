// Every proxy of one server by name (proxy_collection.go): create, replace on populate, remove, reset.
import { type ApiError, asApiError, decoded, errors } from './errors.ts';
import { asStruct, DecodeError, field } from './json-decode.ts';
import { ALREADY_STARTED, type ProxyEnvironment, ToxicProxy } from './proxy.ts';

interface ProxyInput {
  name: string;
  listen: string;
  upstream: string;
  enabled: boolean | undefined;
}

function decodeProxy(value: unknown, defaults: { listen: string; upstream: string }): ProxyInput {
  const object = asStruct(value, 'toxiproxy.Proxy');
  return {
    name: field(object, 'name', 'string', 'Proxy.name') ?? '',
    listen: field(object, 'listen', 'string', 'Proxy.listen') ?? defaults.listen,
    upstream: field(object, 'upstream', 'string', 'Proxy.upstream') ?? defaults.upstream,
    enabled: field(object, 'enabled', 'bool', 'Proxy.enabled'),
  };
}

/** POST /populate's body: an array of proxies, each with a name and an upstream (checked before any change). */
function decodePopulate(body: unknown): ProxyInput[] {
  if (!Array.isArray(body) && body !== null) {
    const kind = typeof body === 'object' ? 'object' : typeof body === 'boolean' ? 'bool' : typeof body;
    throw new DecodeError(
      `json: cannot unmarshal ${kind} into Go value of type []struct { toxiproxy.Proxy; Enabled *bool "json:\\"enabled\\"" }`,
    );
  }
  const inputs = (body ?? []).map((entry: unknown) => decodeProxy(entry, { listen: '', upstream: '' }));
  inputs.forEach((input, i) => {
    if (!input.name) throw errors.missingField(`name at proxy ${i + 1}`);
    if (!input.upstream) throw errors.missingField(`upstream at proxy ${i + 1}`);
  });
  return inputs;
}

/** What POST /populate answers: the proxies done, and the error that stopped it, if any. */
export interface PopulateResult {
  proxies: ToxicProxy[] | null;
  error?: ApiError;
}

export class ProxyCollection {
  private readonly proxies = new Map<string, ToxicProxy>();

  constructor(private readonly env: ProxyEnvironment) {}

  get(name: string): ToxicProxy {
    const proxy = this.proxies.get(name);
    if (!proxy) throw errors.proxyNotFound();
    return proxy;
  }

  all(): ToxicProxy[] {
    return [...this.proxies.values()];
  }

  /** GET /proxies: an object keyed by name (Go marshals maps with sorted keys), as JSON text. */
  indexText(): string {
    const names = [...this.proxies.keys()].sort();
    return `{${names.map((name) => `${JSON.stringify(name)}:${this.proxies.get(name)!.jsonText()}`).join(',')}}`;
  }

  async create(body: unknown): Promise<ToxicProxy> {
    const input = decoded(() => decodeProxy(body, { listen: '', upstream: '' }));
    if (!input.name) throw errors.missingField('name');
    if (!input.upstream) throw errors.missingField('upstream');
    if (this.proxies.has(input.name)) throw errors.proxyAlreadyExists();
    const proxy = new ToxicProxy(input.name, input.listen, input.upstream, this.env);
    if (input.enabled ?? true) await proxy.start();
    this.proxies.set(proxy.name, proxy);
    return proxy;
  }

  /** Every entry is validated before any proxy is touched; an existing proxy is replaced only if it differs. */
  async populate(body: unknown): Promise<PopulateResult> {
    let inputs: ProxyInput[];
    try {
      inputs = decoded(() => decodePopulate(body));
    } catch (error) {
      return { proxies: null, error: asApiError(error) };
    }
    const done: ToxicProxy[] = [];
    for (const input of inputs) {
      try {
        done.push(await this.addOrReplace(input));
      } catch (error) {
        return {
          proxies: done.length > 0 ? done : null,
          error: asApiError(error),
        };
      }
    }
    return { proxies: done.length > 0 ? done : null };
  }

  /** PATCH /proxies/{p}: missing fields keep their current values. */
  async update(name: string, body: unknown): Promise<ToxicProxy> {
    const proxy = this.get(name);
    const input = decoded(() => decodeProxy(body, proxy));
    await proxy.update({ listen: input.listen, upstream: input.upstream, enabled: input.enabled ?? proxy.enabled });
    return proxy;
  }

  remove(name: string): void {
    this.get(name).stop();
    this.proxies.delete(name);
  }

  /** POST /reset: re-enable every proxy and remove every toxic. */
  async reset(): Promise<void> {
    for (const proxy of this.proxies.values()) {
      try {
        await proxy.start();
      } catch (error) {
        if ((error as Error).message !== ALREADY_STARTED) throw error;
      }
      await proxy.toxics.reset();
    }
  }

  /** Teardown of the whole server. */
  clear(): void {
    for (const proxy of this.proxies.values()) proxy.stop();
    this.proxies.clear();
  }

  private async addOrReplace(input: ProxyInput): Promise<ToxicProxy> {
    const existing = this.proxies.get(input.name);
    if (existing) {
      if (!existing.differs(input.listen, input.upstream)) return existing;
      existing.stop();
    }
    const proxy = new ToxicProxy(input.name, input.listen, input.upstream, this.env);
    if (input.enabled ?? true) await proxy.start();
    this.proxies.set(proxy.name, proxy);
    return proxy;
  }
}
