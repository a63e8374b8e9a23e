// Planted secrets for the leak scan. The `leak-canary` fault puts them in dependency error bodies and headers; a
// correct server never lets any of them reach the model. Each full canary contains a unique marker, so a scanner
// can also catch a partial leak by searching for the markers.

export const CANARY_MARKERS = {
  bearerToken: 'flcanaryTOK7Qx2',
  password: 'flcanaryPWD9Lm4',
  stackTrace: 'flcanaryTRACE3Zk',
  sql: 'flcanary_sql_users',
  absolutePath: 'flcanary-secrets',
} as const;

export const CANARIES = {
  bearerToken: `Bearer eyJhbGciOiJIUzI1NiJ9.${CANARY_MARKERS.bearerToken}.c2lnbmF0dXJl`,
  password: `password=${CANARY_MARKERS.password}!`,
  stackTrace: `Error: upstream failure\n    at chargeCard (/srv/app/node_modules/${CANARY_MARKERS.stackTrace}/charge.js:42:13)\n    at processTicksAndRejections (node:internal/process/task_queues:95:5)`,
  sql: `SELECT id, api_key FROM ${CANARY_MARKERS.sql} WHERE email = 'ops@example.com'`,
  absolutePath: `/home/deploy/${CANARY_MARKERS.absolutePath}/.env`,
} as const;

/** Returns the names of the canaries whose marker occurs in `text`. */
export function findCanaries(text: string): string[] {
  return Object.entries(CANARY_MARKERS)
    .filter(([, marker]) => text.includes(marker))
    .map(([name]) => name);
}
