/**
 * The names the ownership benchmarks give their parties (stored-graphs.ts): synthetic people from
 * yente's candidate-generation benchmark (names that are on no list), their family names for
 * companies, and the persons of a list, written as people write them ("Given FAMILY", not the
 * SDN's "FAMILY, Given"), for the few parties meant to be found by screening.
 */
import type { ListEntity } from '../../src/screening/model.ts';
import { readCsvRecords } from '../matching/eval-data.ts';
import type { NamePools } from './stored-graphs.ts';

export function namePools(dataDir: string, listed: readonly ListEntity[]): NamePools {
  const people = readCsvRecords(dataDir, 'eval/yente_candidate_generation_benchmark/negatives_us.csv');
  return {
    people: people.map((r) => r.full_name as string),
    familyNames: people.map((r) => r.last_name as string).filter((n) => n.length > 0),
    listedNames: listed.filter((e) => e.type === 'person').map((e) => (e.names[0]?.full ?? '').split(', ').reverse().join(' ')),
  };
}
