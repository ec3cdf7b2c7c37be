/**
 * Country names as lists write them, to ISO 3166-1 alpha-2. Node's own ICU names every code
 * (`Intl.DisplayNames`), so only the lists' own spellings need a table. A region inside a country
 * maps to that country; a disputed or defunct one (Kafia Kingi, Jammu and Kashmir, Netherlands
 * Antilles) maps to nothing rather than to a guess, and parsers keep its name.
 */
const LIST_SPELLINGS: Record<string, string> = {
  turkey: 'TR',
  'korea, north': 'KP',
  'korea, south': 'KR',
  burma: 'MM',
  'congo, democratic republic of the': 'CD',
  'congo, republic of the': 'CG',
  'hong kong': 'HK',
  macau: 'MO',
  palestinian: 'PS',
  'west bank': 'PS',
  'region: gaza': 'PS',
  'region: west bank': 'PS',
  'region: northern gaza': 'PS',
  'region: north gaza': 'PS',
  'virgin islands, british': 'VG',
  'the gambia': 'GM',
  'gambia, the': 'GM',
  'bahamas, the': 'BS',
  'north macedonia, the republic of': 'MK',
  'czech republic': 'CZ',
  'cote d ivoire': 'CI',
  "cote d'ivoire": 'CI',
  'man, isle of': 'IM',
  'region: crimea': 'UA',
  'region: northern mali': 'ML',
  'region: russia': 'RU',
  'region: china': 'CN',
  'saint vincent and the grenadines': 'VC',
  'cabo verde': 'CV',
  // The UN's own (formal) names.
  'democratic republic of the congo': 'CD',
  congo: 'CG',
  "democratic people's republic of korea": 'KP',
  'iran (islamic republic of)': 'IR',
  'syrian arab republic': 'SY',
  'united republic of tanzania': 'TZ',
  'viet nam': 'VN',
  'united states of america': 'US',
  'state of palestine': 'PS',
  'united kingdom of great britain and northern ireland': 'GB',
  'russian federation': 'RU',
  'china, hong kong special administrative region': 'HK',
};

/**
 * Codes ICU names that ISO 3166-1 does not assign: groupings, exceptionally reserved or
 * transitionally reserved codes. Without this, "Russia" would map to SU and "United Kingdom" to UK,
 * "Benin" to DY and "Burkina Faso" to HV (ICU names the old codes after today's countries).
 */
const NOT_ISO = new Set([
  'AC',
  'CP',
  'CQ',
  'DG',
  'EA',
  'IC',
  'TA',
  'SU',
  'UK',
  'YU',
  'ZR',
  'TP',
  'BU',
  'CS',
  'DD',
  'FX',
  'NT',
  'EU',
  'UN',
  'EZ',
  'DY',
  'HV',
  'ZZ',
]);

const normalize = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replaceAll('&', 'and')
    .replace(/\bst\.\s/g, 'saint ')
    .replace(/\s+/g, ' ')
    .trim();

const BY_NAME = (() => {
  const table = new Map<string, string>();
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      // The private-use codes QM–QZ and XA–XZ are not countries either (XK, Kosovo, is kept).
      if (name && !NOT_ISO.has(code) && !/^Q[M-Z]$/.test(code) && (!code.startsWith('X') || code === 'XK')) {
        table.set(normalize(name), code);
        table.set(normalize(name.replace(/ SAR China$/, '').replace(/\s*\(.*\)$/, '')), code); // "Hong Kong SAR China", "Myanmar (Burma)"
      }
    }
  }
  for (const [name, code] of Object.entries(LIST_SPELLINGS)) table.set(normalize(name), code);
  return table;
})();

/** The ISO 3166-1 alpha-2 code for a country name as a list writes it, if there is one. */
export function countryCode(name: string): string | undefined {
  return BY_NAME.get(normalize(name));
}
