// The contract between the reference server and its dependencies: which APIs exist and where, the paths it calls,
// the server's credentials, and the bodies they exchange. The server imports only this (and, in one bootstrap
// file, the mocked world); mocks/apis/* implement it. A real deployment would get these from the APIs' docs.

export const DEPENDENCIES = ['payments', 'notifications', 'search', 'reports', 'auth'] as const;
export type DependencyName = (typeof DEPENDENCIES)[number];

/** Fake hosts: msw answers them in the server's process, nothing leaves the machine. */
export const DEPENDENCY_URLS: Record<DependencyName, string> = {
  payments: 'https://payments.faultline.test',
  notifications: 'https://notifications.faultline.test',
  search: 'https://search.faultline.test',
  reports: 'https://reports.faultline.test',
  auth: 'https://auth.faultline.test',
};

/** Resource paths under each API's URL. */
export const DEPENDENCY_PATHS = {
  /** POST creates (Idempotency-Key honoured); GET ?idempotency_key= looks a charge up. */
  charges: '/v1/charges',
  /** POST sends (never deduplicated); GET ?client_reference= searches sent messages. */
  messages: '/v1/messages',
  /** GET ?q=&limit=&cursor= */
  search: '/v1/search',
  /** POST publishes (Idempotency-Key honoured); GET ?idempotency_key= looks a report up. */
  reports: '/v1/reports',
  /** POST with the client secret header: a fresh access token. */
  token: '/v1/token',
} as const;

/** The server's client secret at the token service (OAuth client-credentials style), sent in this header. */
export const CLIENT_SECRET = 'faultline-client-secret';
export const CLIENT_SECRET_HEADER = 'x-client-secret';
/** The access token the server starts with, issued "at the beginning of time". */
export const INITIAL_TOKEN = 'faultline-service';

export interface Charge {
  id: string;
  customer_id: string;
  amount_cents: number;
  currency: string;
  status: 'succeeded';
  idempotency_key?: string;
  args_key: string;
  created_ms: number;
}

export interface Message {
  id: string;
  recipient: string;
  channel: 'email' | 'sms';
  status: 'sent';
  client_reference?: string;
  created_ms: number;
}

export interface Report {
  id: string;
  report_type: string;
  status: 'ready';
  url: string;
  idempotency_key?: string;
  args_key: string;
  created_ms: number;
}

export interface Doc {
  id: string;
  title: string;
  snippet: string;
  score: number;
}

export interface SearchPage {
  results: Doc[];
  total: number;
  next_cursor: string | null;
}

export interface TokenGrant {
  access_token: string;
  token_type: 'Bearer';
}
