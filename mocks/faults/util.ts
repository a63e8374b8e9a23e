// Small helpers shared by fault kinds.

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A plain error answer for an injected status. */
export function statusResponse(status: number, headers?: Record<string, string>): Response {
  const message = REASONS[status] ?? 'Error';
  return Response.json({ error: { code: `http_${status}`, message } }, { status, headers });
}

const FILLER = 'lorem ipsum dolor sit amet consectetur adipiscing elit ';

export function filler(bytes: number): string {
  return FILLER.repeat(Math.ceil(bytes / FILLER.length)).slice(0, bytes);
}
