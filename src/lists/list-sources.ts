/**
 * Where each restricted-party list is published today (SOURCES.md §18), and how a running
 * service reaches it: an ordered list of URLs per source (the publisher's documented endpoint
 * first, then known alternative paths), the hosts a redirect may lead to, whether the publisher
 * refuses clients that do not look like a browser, and how old its lists may grow before the
 * service says so. Operators replace a source's URLs, or turn it off, with LISTS_URL_<SOURCE>.
 */
import type { ListCode } from '../screening/model.ts';

export type SourceName = 'ofacSdn' | 'ofacCons' | 'unSc' | 'csl' | 'bisDpl' | 'ukFcdo';

type SourceDefinition = {
  name: SourceName;
  /** The suffix of its LISTS_URL_ variable. */
  env: string;
  label: string;
  /** The lists this source is the authority for. */
  lists: ListCode[];
  /** Lists it also carries, which become its own when their own source is off (the CSL's DPL rows). */
  standsInFor?: ListCode[];
  /** The files a folder URL holds, under the names that tell their format. */
  fileNames: string[];
  /** Official first; undefined when the source is off unless configured. */
  defaultUrls: string[] | undefined;
  /** Domains (and their subdomains) a redirect may lead to, besides the configured URLs' own hosts. */
  publisherDomains: string[];
  /** OFAC's firewall answers 403 unless the User-Agent looks like a browser (SOURCES.md §18). */
  browserUserAgent: boolean;
  /** How long after its last successful check the source's lists count as stale. */
  maxAgeHours: number;
};

const OFAC_SLS = 'https://sanctionslistservice.ofac.treas.gov/api';
/** Both OFAC lists come from the Sanctions List Service, under the same firewall. */
const OFAC_SERVICE = {
  // The documented download endpoint, then the path it redirects to.
  defaultUrls: [`${OFAC_SLS}/download/`, `${OFAC_SLS}/PublicationPreview/exports/`],
  publisherDomains: ['treas.gov', 'treasury.gov'],
  browserUserAgent: true,
  maxAgeHours: 48,
};

export const SOURCE_DEFINITIONS: readonly SourceDefinition[] = [
  {
    name: 'ofacSdn',
    env: 'OFAC_SDN',
    label: 'OFAC SDN (legacy CSV)',
    lists: ['OFAC_SDN'],
    fileNames: ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv'],
    ...OFAC_SERVICE,
  },
  {
    name: 'ofacCons',
    env: 'OFAC_CONS',
    label: 'OFAC Consolidated non-SDN (legacy CSV)',
    lists: ['OFAC_CONS'],
    fileNames: ['cons_prim.csv', 'cons_add.csv', 'cons_alt.csv', 'cons_comments.csv'],
    ...OFAC_SERVICE,
  },
  {
    name: 'unSc',
    env: 'UN_SC',
    label: 'UN Security Council Consolidated List',
    lists: ['UN_SC'],
    fileNames: ['consolidated.xml'],
    defaultUrls: ['https://scsanctions.un.org/resources/xml/en/consolidated.xml'],
    publisherDomains: ['un.org'],
    browserUserAgent: false,
    maxAgeHours: 72,
  },
  {
    name: 'csl',
    env: 'CSL',
    label: 'trade.gov Consolidated Screening List',
    // The CSL repeats the SDN, the DPL and the non-SDN lists: each comes from its own source when
    // that one is configured (list-update.ts), from the CSL otherwise. The DPL's own file is gone
    // (bis.doc.gov serves its home page), so by default the DPL is the CSL's rows.
    lists: ['BIS_EL', 'BIS_UVL', 'BIS_MEU', 'DDTC_DEBARRED', 'STATE_ISN'],
    standsInFor: ['BIS_DPL', 'OFAC_SDN', 'OFAC_CONS'],
    fileNames: ['consolidated.csv'],
    defaultUrls: [
      'https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.csv',
      'https://api.trade.gov/static/consolidated_screening_list/consolidated.csv',
    ],
    publisherDomains: ['trade.gov'],
    browserUserAgent: false,
    maxAgeHours: 72,
  },
  {
    name: 'bisDpl',
    env: 'BIS_DPL',
    label: 'BIS Denied Persons List',
    lists: ['BIS_DPL'],
    fileNames: ['dpl.txt'],
    defaultUrls: undefined,
    publisherDomains: ['bis.gov', 'bis.doc.gov'],
    browserUserAgent: false,
    maxAgeHours: 72,
  },
  {
    name: 'ukFcdo',
    env: 'UK_FCDO',
    label: 'UK Sanctions List (FCDO)',
    lists: ['UK_FCDO'],
    fileNames: ['UK-Sanctions-List.csv'],
    defaultUrls: ['https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv'],
    publisherDomains: ['fcdo.gov.uk'],
    browserUserAgent: false,
    maxAgeHours: 72,
  },
];

/** Each source's URLs in the order they are tried; a source that is absent is off. */
export type ListSourceUrls = Partial<Record<SourceName, string[]>>;

/** One place a source can be fetched from: a folder with the source's files, or one file. */
export type SourceLocation = { url: string; files: { url: string; fileName: string }[] };

export type ListSource = {
  name: SourceName;
  label: string;
  lists: ListCode[];
  /** Tried in order until one serves a file that reads. */
  locations: SourceLocation[];
  /** Hosts a redirect may lead to: the locations' own and the publisher's domains. */
  redirectAllowed(host: string): boolean;
  browserUserAgent: boolean;
  maxAgeHours: number;
};

/** The default URLs, for configuration and documentation. */
export const DEFAULT_SOURCE_URLS: ListSourceUrls = Object.fromEntries(SOURCE_DEFINITIONS.flatMap((s) => (s.defaultUrls ? [[s.name, s.defaultUrls]] : [])));

/** The sources an operator has not turned off, each with where to fetch it. */
export function configuredSources(urls: ListSourceUrls): ListSource[] {
  const on = SOURCE_DEFINITIONS.filter((definition) => (urls[definition.name]?.length ?? 0) > 0);
  const claimed = new Set(on.flatMap((definition) => definition.lists));
  return on.map((definition) => {
    const given = urls[definition.name] as string[];
    const locations = given.map((url) => locate(url, definition.fileNames));
    const hosts = new Set(locations.map((l) => new URL(l.url).hostname));
    const redirectAllowed = (host: string) => hosts.has(host) || definition.publisherDomains.some((domain) => host === domain || host.endsWith(`.${domain}`));
    const lists = [...definition.lists, ...(definition.standsInFor ?? []).filter((list) => !claimed.has(list))];
    const { name, label, browserUserAgent, maxAgeHours } = definition;
    return { name, label, lists, locations, redirectAllowed, browserUserAgent, maxAgeHours };
  });
}

/**
 * A URL whose last segment names a file (it has an extension) is that one file, kept under its
 * own name so its format is recognised (`SDN_ENHANCED.ZIP` in place of the legacy CSV); any other
 * URL is a folder holding the source's files.
 */
function locate(url: string, fileNames: string[]): SourceLocation {
  const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  if (/\.[a-z0-9]{2,5}$/i.test(last)) return { url, files: [{ url, fileName: last }] };
  const folder = url.endsWith('/') ? url : `${url}/`;
  return { url, files: fileNames.map((fileName) => ({ fileName, url: new URL(fileName, folder).href })) };
}

/** The lists a complete set of the configured sources provides. */
export const expectedLists = (urls: ListSourceUrls): ListCode[] => configuredSources(urls).flatMap((s) => s.lists);

/** The source that is the authority for a list, among those configured (the CSL stands in for those turned off). */
export function sourceOfList(sources: ListSource[], list: ListCode): ListSource | undefined {
  return sources.find((s) => s.lists.includes(list));
}
