/**
 * The one error type of the service, over a closed set of codes. Each code has one status and
 * one title; `detail` is the only part that varies between occurrences. Features add codes here
 * (with a comment saying when they are thrown) rather than inventing statuses in handlers.
 */
export const ERROR_CATALOG = {
  /** The body, query or path failed its schema; `errors` lists each problem with a pointer. */
  validation_failed: { status: 400, title: 'The request is not valid' },
  /** The body is not parseable JSON, or is empty where JSON is required. */
  malformed_json: { status: 400, title: 'The request body is not valid JSON' },
  /** No credential, or one that cannot be parsed. */
  unauthenticated: { status: 401, title: 'Authentication is required' },
  /** The API key was disabled by an administrator; it works again once enabled. */
  key_disabled: { status: 401, title: 'The API key is disabled' },
  /** The API key was revoked; revocation is final. */
  key_revoked: { status: 401, title: 'The API key is revoked' },
  /** The JWT is past its expiry time. */
  token_expired: { status: 401, title: 'The token has expired' },
  /** An inbound webhook lacks a valid Standard Webhooks signature, or its timestamp is too far from ours. */
  invalid_signature: { status: 401, title: 'The webhook signature is not valid' },
  /** The organization is suspended: none of its credentials work. */
  organization_suspended: { status: 403, title: 'The organization is suspended' },
  /** The endpoint belongs to a tier the organization does not have; `required_tier` names it. */
  tier_required: { status: 403, title: 'This endpoint needs a higher tier' },
  /** The caller's role or key scope may not do this (the permission matrix, src/http/permissions.ts); `allowed` lists who may. */
  role_required: { status: 403, title: 'This needs another role' },
  /** The credential is valid but may not do this. */
  forbidden: { status: 403, title: 'This action is not allowed' },
  /** No such resource for this organization (another organization's ids also land here). */
  not_found: { status: 404, title: 'The resource was not found' },
  /** The path exists but not with this method; the `Allow` header lists the methods it has. */
  method_not_allowed: { status: 405, title: 'The method is not allowed on this resource' },
  /** The request conflicts with the resource's current state. */
  conflict: { status: 409, title: 'The request conflicts with the current state' },
  /** The resource's state does not allow this change; `allowed` lists what it does allow now. */
  invalid_transition: { status: 409, title: 'The transition is not allowed from the current state' },
  /** A four-eyes decision waits for a second person: not an API key, not the proposer, not whoever created the proposing key. */
  second_reviewer_required: { status: 409, title: 'A second, different person must review this' },
  /** A full workforce sync would deactivate more active profiles than its limit; the counts are in the body. */
  sync_shrink_refused: { status: 409, title: 'The sync would deactivate too many profiles' },
  /** A watchlist import in `replace` mode would remove more of its entries than its limit; the counts are in the body. */
  watchlist_shrink_refused: { status: 409, title: 'The import would remove too many watchlist entries' },
  /** An Idempotency-Key was reused with a different request. */
  idempotency_key_reused: { status: 409, title: 'The idempotency key was used for a different request' },
  /** A request with the same Idempotency-Key is still being processed. */
  idempotency_key_in_progress: { status: 409, title: 'A request with this idempotency key is in progress' },
  /** The body is larger than the service accepts. */
  payload_too_large: { status: 413, title: 'The request body is too large' },
  /** The body's Content-Type is not one this endpoint accepts (JSON, as a rule). */
  unsupported_media_type: { status: 415, title: 'The content type is not supported' },
  /** The HTTP parser could not read the request (before any route): a malformed request line or header. */
  bad_request: { status: 400, title: 'The request is not valid HTTP' },
  /** The request did not arrive whole in time (before any route). */
  request_timeout: { status: 408, title: 'The request took too long to arrive' },
  /** The request line and headers (a long query string included) are larger than the server reads. */
  headers_too_large: { status: 431, title: 'The request headers are too large' },
  /** Too many requests; `Retry-After` says when to try again. */
  rate_limited: { status: 429, title: 'Too many requests' },
  /** A fault of ours. The body says nothing more; the request id finds it in the logs. */
  internal_error: { status: 500, title: 'Internal server error' },
  /** The service cannot serve now (starting, stopping, database unreachable, or timed out). */
  service_unavailable: { status: 503, title: 'The service is unavailable' },
  /** No restricted-party list is loaded, so a screening could only answer a false `clear`. */
  lists_unavailable: { status: 503, title: 'No restricted-party list is loaded' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** One problem with one part of the request, as a JSON Pointer into the body (or into `in`). */
/** The most field errors one answer lists; a body with more says there are more (`errors_truncated`). */
export const MAX_FIELD_ERRORS = 100;

export type FieldError = { pointer: string; detail: string; in?: 'body' | 'query' | 'path' | 'header' };

export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extras: { errors?: FieldError[]; headers?: Record<string, string>; [key: string]: unknown } = {},
  ) {
    super(detail);
    this.status = ERROR_CATALOG[code].status;
    this.title = ERROR_CATALOG[code].title;
  }
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;
