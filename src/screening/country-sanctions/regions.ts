/**
 * Sanctioned regions named by the caller or found in free text (an address, a city). A region has
 * no ISO 3166-1 code, and lists and visitors write "Sevastopol" or "Simferopol" rather than
 * "Crimea", so the text is searched for the region's own names and its main cities.
 *
 * The search only ever adds a flag; it never clears one. It is conservative in what it reads:
 * whole words only, after folding case and diacritics, in Latin and Cyrillic spellings. It does not
 * read bare acronyms ("DNR" is also a U.S. Department of Natural Resources, "DPR" starts "DPRK").
 * A hit is a lead to review, not proof of location: there is a Donetsk in Russia's Rostov oblast,
 * and the so-called DNR and LNR are parts of the Donetsk and Luhansk oblasts, not the whole of them
 * (OFAC FAQ 1009). A city not listed here is not found: the absence of a flag clears nothing.
 * Names that are mostly something else were left out on purpose: Sebastopol (California),
 * Sverdlovsk (Yekaterinburg's old name), Torez (a surname), Krymsk (a town in Krasnodar krai).
 * Postal codes count only for Crimea, the whole of which is embargoed, and only next to "Ukraine"
 * or "Russia": the DNR and LNR cover part of their oblasts' postal ranges.
 */
import type { SanctionedRegionId } from './table.ts';

type RegionNames = {
  /** Region ids a caller may pass, besides the id itself: ISO 3166-2 codes of the area. */
  codes: string[];
  /** Names and cities, as written in Latin or Cyrillic; matched as whole words. A trailing `*` also
   * matches the word's derived forms ("Bakhchisaray*" finds "Bakhchisarayski district"). */
  names: string[];
  /** Postal codes of the region, when the text also names Ukraine or Russia (alone, 95xxx is Californian). */
  postalCodes?: RegExp;
};

// biome-ignore format: a word table, packed by hand
const REGIONS: Record<SanctionedRegionId, RegionNames> = {
  crimea: {
    // UA-43 is the Autonomous Republic of Crimea, UA-40 the city of Sevastopol.
    codes: ['UA-43', 'UA-40'],
    names: [
      'Crimea', 'Crimean', 'Krym', 'Krim', 'Sevastopol*', 'Simferopol*', 'Kerch', 'Yevpatori*', 'Evpatori*', 'Feodosi*', 'Theodosia', 'Yalta',
      'Sudak', 'Dzhankoi', 'Dzhanko*', 'Jankoy*', 'Alushta', 'Bakhchysara*', 'Bakhchisara*', 'Armiansk', 'Armyansk',
      'Крым', 'Крим', 'Севастополь', 'Симферополь', 'Сімферополь', 'Керчь', 'Керч', 'Евпатория', 'Євпаторія', 'Феодосия', 'Феодосія', 'Ялта',
    ],
    // Russian-assigned 295000–299999 and Ukrainian 95000–99999 (Sevastopol 99xxx), as the SDN writes them.
    postalCodes: /(?<!\d)(29[5-9]\d{3}|9[5-9]\d{3})(?!\d)/,
  },
  dnr: {
    // UA-14 is the whole Donetsk oblast: more than the so-called DNR, accepted because a flag only asks for review.
    codes: ['UA-14'],
    names: [
      'Donetsk', "Donetsk People's Republic", 'Donetskaya', 'Horlivka', 'Gorlovka', 'Makiivka', 'Makeevka', 'Makeyevka', 'Yenakiieve', 'Yenakiyevo',
      'Enakievo', 'Khartsyzk', 'Shakhtarsk', 'Snizhne', 'Snezhnoe', 'Chystiakove', 'Ilovaisk', 'Debaltseve',
      'Донецк', 'Донецьк', 'Горловка', 'Горлівка', 'Макеевка', 'Макіївка', 'Енакиево', 'Єнакієве',
    ],
  },
  lnr: {
    // UA-09 is the whole Luhansk oblast, accepted for the same reason as UA-14.
    codes: ['UA-09'],
    names: [
      'Luhansk', 'Lugansk', "Luhansk People's Republic", "Lugansk People's Republic", 'Luganskaya', 'Alchevsk', 'Krasnyi Luch', 'Krasny Luch', 'Krasnyy Luch',
      'Khrustalnyi', 'Krasnodon', 'Molodogvardeysk', 'Molodohvardiisk', 'Sorokyne', 'Dovzhansk', 'Antratsyt', 'Antratsit', 'Stakhanov', 'Kadiivka', 'Rovenky', 'Rovenki',
      'Луганск', 'Луганськ', 'Алчевск', 'Алчевськ', 'Краснодон', 'Стаханов',
    ],
  },
};

/** Case, diacritics and apostrophe forms folded; the same folding for names and for text. */
const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’‘`ʼ]/g, "'")
    .replace(/\s+/g, ' ');

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Longest names first, so "Donetsk People's Republic" is reported rather than "Donetsk".
const PATTERNS = Object.entries(REGIONS).map(([region, { names, postalCodes }]) => {
  const alternatives = names
    .map(fold)
    .sort((a, b) => b.length - a.length)
    .map((name) => (name.endsWith('*') ? `${escapeForRegExp(name.slice(0, -1))}\\p{L}*` : escapeForRegExp(name)));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'u');
  return { region: region as SanctionedRegionId, pattern, postalCodes };
});
const UKRAINE_OR_RUSSIA = /(?<!\p{L})(ukraine|russia|russian federation|украина|україна|россия)(?!\p{L})/u;

const BY_ID = new Map<string, SanctionedRegionId>(
  Object.entries(REGIONS).flatMap(([region, { codes }]) => [region, ...codes].map((id) => [id.toUpperCase(), region as SanctionedRegionId])),
);

export const SANCTIONED_REGION_IDS: readonly string[] = Object.freeze([...BY_ID.keys()].map((id) => (id.startsWith('UA-') ? id : id.toLowerCase())));

/** The region an id names ("crimea", "DNR", "UA-43"), case-insensitively; undefined if none. */
export function sanctionedRegion(id: string): SanctionedRegionId | undefined {
  return BY_ID.get(id.trim().toUpperCase());
}

export type RegionMention = { region: SanctionedRegionId; term: string };

/** Every sanctioned region the text names, each once, with the first name that matched (folded: lower case, no diacritics). */
export function regionsInText(text: string): RegionMention[] {
  const folded = fold(text);
  const postalContext = UKRAINE_OR_RUSSIA.test(folded);
  return PATTERNS.flatMap(({ region, pattern, postalCodes }) => {
    const match = pattern.exec(folded) ?? (postalContext ? postalCodes?.exec(folded) : null);
    return match ? [{ region, term: match[1] as string }] : [];
  });
}
