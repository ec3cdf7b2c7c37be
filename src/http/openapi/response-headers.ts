/**
 * The headers the service sets on its answers (app.ts, rate-limit.ts, credential-refusal.ts,
 * idempotency.ts), declared once in `components.headers` and referenced from each response that
 * carries them.
 */
export const RESPONSE_HEADERS = {
  'X-Request-ID': {
    description: 'The request’s correlation id: the one sent, when it is at most 128 characters of `[A-Za-z0-9._:-]`, else one generated. Quote it to support.',
    schema: { type: 'string', maxLength: 128, examples: ['req_01jbz4r2c5m7p9r1t3v5x7z9ab'] },
  },
  RateLimit: {
    description: 'The credential’s remaining requests `r` and the seconds `t` until its bucket is full again (draft-ietf-httpapi-ratelimit-headers).',
    schema: { type: 'string', examples: ['"credential";r=399;t=1'] },
  },
  'RateLimit-Policy': {
    description: 'The credential’s bucket: `q` requests per window `w` seconds (bursts of twice the rate).',
    schema: { type: 'string', examples: ['"credential";q=400;w=2'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before sending the request again.',
    schema: { type: 'integer', minimum: 1, examples: [1] },
  },
  'WWW-Authenticate': {
    description: 'The Bearer challenge; `error="invalid_token"` when a credential was sent and refused.',
    schema: { type: 'string', examples: ['Bearer realm="gatehouse", error="invalid_token"'] },
  },
} as const;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

export const headerRefs = (names: ResponseHeaderName[]) =>
  Object.fromEntries([...new Set(names)].map((name) => [name, { $ref: `#/components/headers/${name}` }]));
