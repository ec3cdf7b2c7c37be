/**
 * How current the lists are, as Prometheus gauges computed at scrape time from the freshness
 * report (src/lists/freshness.ts): per list, its age since its last successful check, that
 * check's time, its maximum age and whether it is stale; per source, its failures in a row and
 * its last success. An alert on `gatehouse_list_stale == 1` fires when readyz says `degraded`.
 */
import { Gauge, type Registry } from 'prom-client';
import type { FreshnessReport } from '../lists/freshness.ts';

type Series = [label: string, value: number][];

const seconds = (date: Date | null) => (date ? date.getTime() / 1000 : 0);

export function installListFreshnessMetrics(registry: Registry, report: () => FreshnessReport) {
  const gauge = (name: string, help: string, label: 'list' | 'source', series: (report: FreshnessReport) => Series) =>
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      collect() {
        // Only what the report holds now: a list or source gone since the last scrape leaves no series behind.
        this.reset();
        for (const [value, number] of series(report())) this.set({ [label]: value }, number);
      },
    });

  gauge('gatehouse_list_age_seconds', 'Seconds since the list was last confirmed current (its last successful check or import).', 'list', (r) =>
    r.lists.map((l) => [l.list, l.ageHours * 3600]),
  );
  gauge('gatehouse_list_last_success_timestamp_seconds', "Unix time of the list's last successful check or import.", 'list', (r) =>
    r.lists.map((l) => [l.list, seconds(l.confirmedAt)]),
  );
  gauge('gatehouse_list_max_age_seconds', 'The age past which the list is stale (LISTS_MAX_AGE).', 'list', (r) =>
    r.lists.map((l) => [l.list, l.maxAgeHours * 3600]),
  );
  gauge('gatehouse_list_stale', '1 while the list is past its maximum age (screenings still run against it), else 0.', 'list', (r) =>
    r.lists.map((l) => [l.list, l.stale ? 1 : 0]),
  );
  gauge('gatehouse_list_source_consecutive_failures', 'Checks of the list source that failed in a row; 0 after a success.', 'source', (r) =>
    r.sources.map((s) => [s.source, s.consecutiveFailures]),
  );
  gauge('gatehouse_list_source_last_success_timestamp_seconds', "Unix time of the source's last successful check; 0 when none succeeded yet.", 'source', (r) =>
    r.sources.map((s) => [s.source, seconds(s.lastSuccessAt)]),
  );
}
