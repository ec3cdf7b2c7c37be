/**
 * Which list an OpenSanctions FollowTheMoney file is. Every entity names the OpenSanctions
 * datasets it is on (`datasets`); a file is read as one list, chosen in this order:
 * 1. the dataset the file is named after (`eu_fsf.ftm.json`) or, as OpenSanctions lays out its
 *    exports (`…/eu_fsf/entities.ftm.json`), the folder it is in, when the entities carry it;
 * 2. otherwise the dataset most entities carry. When several are carried equally often (an
 *    excerpt whose every entity is on the same twenty lists) the data cannot tell: a list
 *    Gatehouse already knows is preferred, then the first by name, and a warning names the others
 *    and how to choose (name the file or its folder after the dataset).
 * Datasets of lists Gatehouse reads from their publishers keep those lists' codes; any other
 * dataset is `OS_` and its name in capitals.
 */
import type { ListCode } from '../model.ts';
import { ListFormatError } from './list-format-error.ts';

const KNOWN: Record<string, ListCode> = {
  eu_fsf: 'EU_FSF',
  gb_fcdo_sanctions: 'UK_FCDO',
  us_ofac_sdn: 'OFAC_SDN',
  us_ofac_cons: 'OFAC_CONS',
  un_sc_sanctions: 'UN_SC',
};

const isKnown = (dataset: string) => Object.hasOwn(KNOWN, dataset);

export const listCodeOfDataset = (dataset: string): ListCode => (isKnown(dataset) ? (KNOWN[dataset] as ListCode) : `OS_${dataset.toUpperCase()}`);

/** The dataset a file's entities are read as, and what a person should know about the choice. */
export function chooseDataset(entityDatasets: string[][], file: { name: string; folder: string }): { dataset: string; warnings: string[] } {
  const counts = new Map<string, number>();
  for (const datasets of entityDatasets) for (const dataset of new Set(datasets)) counts.set(dataset, (counts.get(dataset) ?? 0) + 1);
  if (counts.size === 0) throw new ListFormatError('No entity names the OpenSanctions dataset it is on (`datasets`): the list it belongs to cannot be told');
  const total = entityDatasets.length;
  const notOn = (dataset: string) => {
    const missing = total - (counts.get(dataset) ?? 0);
    return missing > 0
      ? [`${missing.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} entities are not on ${dataset}; they are read into its list all the same`]
      : [];
  };

  const named = /^(.+)\.ftm\.json$/i.exec(file.name)?.[1];
  for (const candidate of [named, file.folder]) if (candidate && counts.has(candidate)) return { dataset: candidate, warnings: notOn(candidate) };

  const most = Math.max(...counts.values());
  const tied = [...counts]
    .filter(([, n]) => n === most)
    .map(([dataset]) => dataset)
    .sort((a, b) => Number(isKnown(b)) - Number(isKnown(a)) || a.localeCompare(b));
  const dataset = tied[0] as string;
  const warnings = notOn(dataset);
  if (tied.length > 1) {
    warnings.unshift(
      `The entities are on ${tied.length} datasets equally often (${tied.join(', ')}); read as ${dataset}. ` +
        'Name the file <dataset>.ftm.json, or put it in a folder named after the dataset, to choose another',
    );
  }
  return { dataset, warnings };
}
