/**
 * POST /api/v1/ownership/check on a real database: the Enterprise tier, the answer's shape on the
 * FAQ 401 examples, every refusal pointed at with nothing evaluated or audited, 503 without lists,
 * names screened against the fixture SDN and then against the real one, and the match threshold.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_VERSION } from '../../../src/features/cases/rules.ts';
import { documentedAnswer } from '../../../src/features/ownership/documented-answer.ts';
import { ownershipRequest } from '../../../src/features/ownership/request.ts';
import { FAQ_401_EXAMPLE_3, REQUEST_EXAMPLES } from '../../../src/features/ownership/request-examples.ts';
import { createOwnershipService } from '../../../src/features/ownership/service.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { readListFile, skipWithoutListData } from '../../helpers/list-data.ts';
import { loadSdn } from '../../helpers/sdn-loading.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

const fixture = (path: string) => fs.readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'latin1');

/** The first example of the OpenAPI description, FAQ 401 Example 3, evaluated on the designations it gives. */
const example3 = { ...FAQ_401_EXAMPLE_3, screen_names: false };

describe('POST /api/v1/ownership/check', () => {
  let harness: TestApp;
  let enterprise: TestTenant;
  let defense: TestTenant;
  const check = (payload: unknown, tenant = enterprise) =>
    harness.app.inject({ method: 'POST', url: '/api/v1/ownership/check', headers: tenant.headers, payload: payload as object });
  const audits = async () => (await harness.database.owner<{ n: string }>("SELECT count(*) AS n FROM audit_events WHERE action = 'ownership.checked'"))[0]?.n;

  before(async () => {
    harness = await buildTestApp();
    enterprise = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    defense = await createTenant(harness.database.owner, { tier: 'defense' });
  });
  after(() => harness.close());

  test('a Defense-tier key is refused with tier_required', async () => {
    const response = await check(example3, defense);
    assert.equal(response.statusCode, 403);
    assert.equal(response.json().code, 'tier_required');
  });

  test('the documented example, FAQ 401 Example 3: blocked and BIS-restricted, with contributors, paths, the rule status and its source; audited without names or ids', async () => {
    const response = await check(example3);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.object, 'ownership_check');
    assert.match(body.id, /^own_/);
    assert.deepEqual([body.target, body.as_of], ['T', '2026-11-22']);
    assert.deepEqual([body.ofac.blocked, body.ofac.basis, body.ofac.aggregate_percent, body.ofac.determinate], [true, 'ownership', 50, true]);
    assert.deepEqual(
      body.ofac.contributors.map((c: { owner: string; percent: number }) => [c.owner, c.percent]),
      [
        ['A', 40],
        ['X', 10],
      ],
    );
    assert.equal(body.ofac.paths[0].text, 'X [OFAC_SDN] —50%→ A [covered owners hold 50%] —40%→ T [covered owners hold 50%]');
    assert.deepEqual([body.bis.restricted, body.bis.affiliates_rule_status, body.bis.red_flag_29, body.bis.foreign_entity], [true, 'in_force', false, true]);
    assert.match(body.bis.affiliates_rule_window.source, /90 FR 50857/);
    assert.deepEqual(body.bis.inherited_from, [{ entity: 'X', lists: ['OFAC_SDN'] }]);
    assert.deepEqual(
      body.entities.map((e: { id: string; ofac_blocked: boolean }) => [e.id, e.ofac_blocked]),
      [
        ['X', true],
        ['A', true],
        ['T', true],
      ],
    );
    assert.deepEqual(body.entities[0].designations, [{ list: 'OFAC_SDN', programs: ['RUSSIA-EO14024'], source: 'given' }]);
    assert.equal(body.screening.performed, false);

    const [audit] = await harness.database.owner<{ details: Record<string, unknown>; organization_id: string }>(
      "SELECT details, organization_id FROM audit_events WHERE action = 'ownership.checked' AND target_id = $1",
      [body.id],
    );
    assert.equal(audit?.organization_id, enterprise.organizationId);
    assert.deepEqual([audit?.details.entities, audit?.details.ownerships, (audit?.details.ofac as { blocked: boolean } | undefined)?.blocked], [3, 3, true]);
    // Counts, verdicts and versions only: no field that could carry the caller's names or ids.
    assert.deepEqual(Object.keys(audit?.details ?? {}).sort(), [
      'as_of',
      'bis',
      'case_id',
      'designated_by_screening',
      'entities',
      'list_versions',
      'names_screened',
      'ofac',
      'ownerships',
      'record_sha256',
      'screen_names',
      'stale_lists',
      'stored',
      'warnings',
    ]);
    assert.doesNotMatch(JSON.stringify(audit?.details), /Oligarch|Alpha Holdings|Target Trading/);
  });

  test('the documented examples answer as documented: the first as its example answer, the second with Red Flag 29', async () => {
    const live = (await check(example3)).json();
    const { id: _id, checked_at: _at, ...documented } = documentedAnswer();
    assert.deepEqual({ ...live, id: undefined, checked_at: undefined }, { ...documented, id: undefined, checked_at: undefined });
    const unknown = (await check(REQUEST_EXAMPLES[1])).json();
    assert.deepEqual(
      [unknown.bis.restricted, unknown.bis.determinate, unknown.bis.red_flag_29, unknown.bis.aggregate_percent, unknown.bis.aggregate_percent_upper],
      [false, false, true, 35, 100],
    );
    assert.ok(unknown.warnings.some((w: { code: string }) => w.code === 'control_not_ownership'));
  });

  test('as_of defaults to today in US Eastern time', async () => {
    const { as_of: _asOf, ...rest } = example3;
    const body = (await check(rest)).json();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
    assert.equal(body.as_of, today);
  });

  test('a suspended date and a U.S. target: OFAC still blocks, BIS does not reach it', async () => {
    const us = { ...example3, as_of: '2026-06-01', entities: example3.entities.map((e) => (e.id === 'T' ? { ...e, country: 'US' } : e)) };
    const body = (await check(us)).json();
    assert.deepEqual([body.ofac.blocked, body.bis.restricted, body.bis.affiliates_rule_status, body.bis.aggregate_percent], [true, false, 'suspended', null]);
  });

  test("a body over the service-wide limit but within the route's own is read", async () => {
    const entities = [...example3.entities, ...Array.from({ length: 20_000 }, (_, i) => ({ id: `filler-company-number-${i}`, type: 'entity', country: 'DE' }))];
    const payload = { ...example3, entities };
    assert.ok(JSON.stringify(payload).length > 1024 * 1024, 'larger than BODY_LIMIT_BYTES');
    const response = await check(payload);
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().entities.length, 3, 'only the parties that matter are listed');
  });

  describe('refusals: 400 with a pointer for each problem, nothing evaluated or audited', () => {
    const withEntities = (entities: unknown[]) => ({ ...example3, entities });
    const withStakes = (ownerships: unknown[]) => ({ ...example3, ownerships });
    const cases: [string, unknown, string[]][] = [
      ['no target', { ...example3, target: undefined }, ['/target']],
      ['a target that is not an entity', { ...example3, target: 'nobody' }, ['/target']],
      ['duplicate entity ids', withEntities([...example3.entities, { id: 'A', type: 'entity' }]), ['/entities/3/id']],
      ['unknown ids in a stake', withStakes([{ owner: 'ghost', owned: 'phantom', percent: 10 }]), ['/ownerships/0/owner', '/ownerships/0/owned']],
      ['self-ownership', withStakes([{ owner: 'A', owned: 'A', percent: 10 }]), ['/ownerships/0/owned']],
      ['an owned natural person', withStakes([{ owner: 'A', owned: 'X', percent: 10 }]), ['/ownerships/0/owned']],
      ['a negative stake', withStakes([{ owner: 'X', owned: 'A', percent: -5 }]), ['/ownerships/0/percent']],
      ['a stake over 100', withStakes([{ owner: 'X', owned: 'A', percent: 100.01 }]), ['/ownerships/0/percent']],
      ['a stake with seven decimals', withStakes([{ owner: 'X', owned: 'A', percent: 12.3456789 }]), ['/ownerships/0/percent']],
      ['a missing percent (null is how to say unknown)', withStakes([{ owner: 'X', owned: 'A' }]), ['/ownerships/0/percent']],
      ['the same stake twice', withStakes([example3.ownerships[0], example3.ownerships[0]]), ['/ownerships/1']],
      ['an as_of that is no date', { ...example3, as_of: '2026-02-30' }, ['/as_of']],
      ['a country that does not exist', withEntities([...example3.entities, { id: 'q', type: 'entity', country: 'QQ' }]), ['/entities/3/country']],
      ['an unknown list code', withEntities([{ id: 'T', type: 'entity', designations: [{ list: 'EU_FSF' }] }]), ['/entities/0/designations/0/list']],
      ['an unknown field', { ...example3, targets: ['x'] }, ['/targets']],
      [
        'a party to screen without a name',
        { ...example3, screen_names: true, entities: [...example3.entities, { id: 'nameless', type: 'entity' }] },
        ['/entities/3/name'],
      ],
      [
        'more entities and stakes than a check takes',
        { target: 'e0', screen_names: false, entities: Array.from({ length: 100_001 }, (_, i) => ({ id: `e${i}`, type: 'entity' })), ownerships: [] },
        ['/entities'],
      ],
    ];
    for (const [what, payload, pointers] of cases) {
      test(`refuses ${what}`, async () => {
        const before = await audits();
        const response = await check(payload);
        assert.equal(response.statusCode, 400, response.body.slice(0, 500));
        assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
        const problem = response.json();
        assert.equal(problem.code, 'validation_failed');
        assert.deepEqual(
          problem.errors.map((e: { pointer: string }) => e.pointer),
          pointers,
          problem.detail,
        );
        assert.equal(await audits(), before, 'nothing was evaluated');
      });
    }

    test('refuses more than 500,000 stakes', async () => {
      const ownerships = Array.from({ length: 500_001 }, () => ({ owner: 'a', owned: 'b', percent: 1 }));
      const response = await check({
        target: 'b',
        screen_names: false,
        entities: [
          { id: 'a', type: 'entity' },
          { id: 'b', type: 'entity' },
        ],
        ownerships,
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(
        response.json().errors.map((e: { pointer: string }) => e.pointer),
        ['/ownerships'],
      );
    });

    test('lists the first 1,000 problems and counts them all', async () => {
      const ownerships = Array.from({ length: 1_500 }, (_, i) => ({ owner: `ghost-${i}`, owned: 'T', percent: 1 }));
      const problem = (await check({ ...example3, ownerships })).json();
      assert.equal(problem.errors.length, 1_000);
      assert.equal(problem.errors_total, 1_500);
      assert.match(problem.detail, /1,500 problems, and nothing was evaluated/);
    });

    test('more distinct names than one check screens', async () => {
      const entities = [...example3.entities, ...Array.from({ length: 10_001 }, (_, i) => ({ id: `n${i}`, name: `Company Number ${i}`, type: 'entity' }))];
      const problem = (await check({ ...example3, screen_names: true, entities })).json();
      assert.deepEqual(
        problem.errors.map((e: { pointer: string }) => e.pointer),
        ['/screen_names'],
      );
    });
  });

  test('with no list loaded, screening names answers 503 lists_unavailable; screen_names false still evaluates', async () => {
    const response = await check({ ...example3, screen_names: true });
    assert.equal(response.statusCode, 503);
    assert.equal(response.json().code, 'lists_unavailable');
    assert.equal((await check(example3)).statusCode, 200);
  });

  describe('with the fixture SDN loaded', () => {
    before(async () => {
      await loadSdn(harness, fixture('ofac/sdn.csv'), fixture('ofac/alt.csv'));
    });

    const screened = {
      target: 'T',
      as_of: '2026-11-22',
      entities: [
        { id: 'IRCO', name: 'Example Trading Co., Ltd.', type: 'entity', country: 'IR' },
        { id: 'T', name: 'Margarethe Vanderbilt-Okonkwo Holdings', type: 'entity', country: 'AE' },
      ],
      ownerships: [{ owner: 'IRCO', owned: 'T', percent: 60 }],
    };

    test('a listed owner found by name counts, marked as found by screening, with its match and the list version', async () => {
      const response = await check(screened);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      const owner = body.entities.find((e: { id: string }) => e.id === 'IRCO');
      assert.deepEqual(owner.designations, [{ list: 'OFAC_SDN', programs: ['IRAN'], source: 'screening', entry_id: '10002' }]);
      assert.equal(owner.screening_matches[0].counted, true);
      assert.match(owner.screening_matches[0].explanation, /EXAMPLE TRADING/);
      assert.deepEqual([body.ofac.blocked, body.bis.restricted], [true, false], 'an IRAN-program SDN does not count for BIS');
      assert.deepEqual([body.screening.performed, body.screening.entities_screened, body.screening.entities_designated], [true, 2, 1]);
      assert.deepEqual(
        body.screening.list_versions.map((v: { list: string }) => v.list),
        ['OFAC_SDN'],
      );
      assert.equal(owner.screening_matches[0].list_version, body.screening.list_versions[0].version_id);
    });

    test("a match below the organization's threshold is reported and not counted", async () => {
      const service = createOwnershipService(harness.database.db.withTenant, harness.app.lists, {
        screeningTerms: async () => ({ matchThreshold: 1.01, rules: DEFAULT_VERSION }),
        freshness: (now) => harness.app.listFreshness.report(now),
      });
      const context = {
        actor: { organizationId: enterprise.organizationId, kind: 'api_key' as const, id: enterprise.keyId },
        requestId: 'req_test',
        sourceIp: null,
      };
      const now = new Date();
      const body = await service.check(context, ownershipRequest(screened as never, now), now);
      const owner = body.entities.find((e) => e.id === 'IRCO') as { designations: unknown[]; screening_matches?: { counted: boolean }[] };
      assert.deepEqual([owner.designations, owner.screening_matches?.[0]?.counted], [[], false]);
      assert.equal(body.ofac.blocked, false);
      assert.ok(body.warnings.some((w) => w.code === 'potential_match_not_counted'));
    });

    test("the organization's own match threshold (its adjudication rules) decides what counts", async () => {
      const put = (rules: object) => harness.app.inject({ method: 'PUT', url: '/api/v1/adjudication/rules', headers: enterprise.headers, payload: rules });
      const score = (await check(screened)).json().entities.find((e: { id: string }) => e.id === 'IRCO').screening_matches[0].score as number;
      assert.equal((await put({ thresholds: { match: Math.min(1, score + 0.01) } })).statusCode, 200);
      try {
        const body = (await check(screened)).json();
        assert.equal(body.screening.threshold, Math.min(1, score + 0.01));
        assert.equal(
          body.entities.find((e: { id: string }) => e.id === 'IRCO').screening_matches[0].counted,
          score >= 1,
          'below the raised threshold: not counted',
        );
      } finally {
        await put({});
      }
    });

    test('designations given are trusted and not screened', async () => {
      const given = { ...screened, entities: [{ ...screened.entities[0], designations: [{ list: 'BIS_EL' }] }, screened.entities[1]] };
      const body = (await check(given)).json();
      const owner = body.entities.find((e: { id: string }) => e.id === 'IRCO');
      assert.deepEqual(
        [owner.designations.map((d: { source: string }) => d.source), owner.screening_matches, body.ofac.blocked, body.bis.restricted],
        [['given'], undefined, false, true],
      );
    });
  });

  describe('with the real SDN loaded', { skip: skipWithoutListData() }, () => {
    before(() => loadSdn(harness, readListFile('ofac_sdn_2024-05/sdn.csv')));

    test('owners found by name: a RUSSIA-EO14024 bank counts for both rules, an IRAN-only company for OFAC only, and together they add up', async () => {
      const entities = [
        { id: 'bank', name: 'Sberbank Europe AG', type: 'entity', country: 'AT' },
        { id: 'ascotec', name: 'ASCOTEC HOLDING GMBH', type: 'entity', country: 'DE' },
        { id: 'T', name: 'Nordlicht Verwaltungs GmbH', type: 'entity', country: 'DE' },
      ];
      const ownerships = [
        { owner: 'bank', owned: 'T', percent: 30 },
        { owner: 'ascotec', owned: 'T', percent: 20 },
      ];
      const response = await harness.app.inject({
        method: 'POST',
        url: '/api/v1/ownership/check',
        headers: enterprise.headers,
        payload: { target: 'T', as_of: '2026-11-22', entities, ownerships },
      });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      const programs = (id: string) => body.entities.find((e: { id: string }) => e.id === id)?.designations.flatMap((d: { programs: string[] }) => d.programs);
      assert.ok(programs('bank').includes('RUSSIA-EO14024'), JSON.stringify(programs('bank')));
      assert.deepEqual(programs('ascotec'), ['IRAN']);
      assert.deepEqual([body.ofac.blocked, body.ofac.aggregate_percent], [true, 50]);
      assert.deepEqual([body.bis.restricted, body.bis.aggregate_percent], [false, 30]);
    });
  });
});
