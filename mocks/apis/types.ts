// What every mocked dependency API shares: its name, its fake host, and one resolver that holds its behaviour.
import { HttpResponse } from 'msw';
import type { EffectLedger } from '../ledger.ts';
import type { DependencyState } from '../state.ts';

export const DEPENDENCIES = ['payments', 'notifications', 'search', 'reports', 'auth'] as const;
export type DependencyName = (typeof DEPENDENCIES)[number];

/** Fake hosts: msw answers them in-process, nothing leaves the machine. */
export const DEPENDENCY_URLS: Record<DependencyName, string> = {
  payments: 'https://payments.faultline.test',
  notifications: 'https://notifications.faultline.test',
  search: 'https://search.faultline.test',
  reports: 'https://reports.faultline.test',
  auth: 'https://auth.faultline.test',
};

export interface ApiContext {
  ledger: EffectLedger;
  state: DependencyState;
  /** From the trace header the server forwards. */
  traceId?: string;
  /** From the Idempotency-Key header. */
  idempotencyKey?: string;
}

export interface DependencyApi {
  name: DependencyName;
  baseUrl: string;
  resolve(request: Request, ctx: ApiContext): Promise<Response>;
}

/** A JSON error body in the shape most REST APIs use. */
export function apiError(status: number, code: string, message: string, extra?: Record<string, unknown>): Response {
  return HttpResponse.json({ error: { code, message, ...extra } }, { status });
}

export async function readJson(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body = (await request.json()) as unknown;
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
