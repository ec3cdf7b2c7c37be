/**
 * The watchlists API as the tests call it: real HTTP through `inject`, as a given caller, and
 * the rows and audit events the calls leave, read as the owner.
 */
import assert from 'node:assert/strict';
import type { TestApp } from '../../helpers/test-app.ts';

export type Caller = { headers: Record<string, string> };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export function watchlistClient(harness: TestApp, defaultCaller: Caller) {
  const call = (method: Method, url: string, payload?: unknown, as: Caller = defaultCaller, headers: Record<string, string> = {}) => {
    const json = payload !== undefined && typeof payload !== 'string';
    return harness.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...as.headers, ...(json && { 'content-type': 'application/json' }), ...headers },
      ...(payload !== undefined && { payload: json ? JSON.stringify(payload) : (payload as string) }),
    });
  };

  /** The call's JSON answer, after checking its status. */
  const expect = async (status: number, method: Method, url: string, payload?: unknown, as?: Caller) => {
    const response = await call(method, url, payload, as);
    assert.equal(response.statusCode, status, `${method} ${url}: ${response.body}`);
    return response.json();
  };

  /** The pointers of a refusal's `errors`, in order. */
  const pointers = (response: { json(): unknown }) => (response.json() as { errors: { pointer: string }[] }).errors.map((e) => e.pointer);

  const createWatchlist = (slug: string, extra: Record<string, unknown> = {}) => expect(201, 'POST', '/watchlists', { slug, name: `List ${slug}`, ...extra });

  const addEntry = (watchlistId: string, entry: Record<string, unknown>, as?: Caller) =>
    expect(201, 'POST', `/watchlists/${watchlistId}/entries`, { reason: 'Barred from the site.', severity: 'red', ...entry }, as);

  const importJson = (watchlistId: string, mode: 'upsert' | 'replace', entries: unknown[], query = '') =>
    call('PUT', `/watchlists/${watchlistId}/entries?mode=${mode}${query}`, { entries });

  const importCsv = (watchlistId: string, mode: 'upsert' | 'replace', csv: string, query = '') =>
    call('PUT', `/watchlists/${watchlistId}/entries?mode=${mode}${query}`, csv, defaultCaller, { 'content-type': 'text/csv' });

  /** The organization's audit events of these actions, oldest first. */
  const audits = (organizationId: string, actions: string[]) =>
    harness.database.owner<{ action: string; target_id: string | null; details: Record<string, unknown>; outcome: string }>(
      'SELECT action, target_id, details, outcome FROM audit_events WHERE organization_id = $1 AND action = ANY($2) ORDER BY seq',
      [organizationId, actions],
    );

  return { call, expect, pointers, createWatchlist, addEntry, importJson, importCsv, audits };
}
