/**
 * Korean syllables as the lists spell them. A Hangul name is read here in the South's Revised
 * Romanization (김정은 → gim jeong eun); lists write the same name in McCune–Reischauer or the
 * North's own usage (KIM Jong Un), and surnames in their traditional spellings (Lee, Park, Choi).
 * These are the spellings one syllable can take; the scorer treats any of them as the same word.
 */

/** Surnames whose usual spellings no rule reaches (이 → Lee, 박 → Park). */
const SURNAMES: Record<string, string[]> = {
  gim: ['kim'],
  i: ['lee', 'yi', 'rhee', 'ri', 'li'],
  ri: ['lee', 'yi', 'rhee', 'li'],
  bak: ['park', 'pak'],
  choe: ['choi', 'chwe'],
  jeong: ['jung', 'chung', 'jong', 'chong'],
  gang: ['kang'],
  jo: ['cho', 'joe'],
  yun: ['yoon'],
  jang: ['chang'],
  im: ['lim', 'rim'],
  o: ['oh'],
  seo: ['suh', 'so'],
  sin: ['shin'],
  gwon: ['kwon'],
  an: ['ahn'],
  ryu: ['yoo', 'yu', 'ryoo'],
  jeon: ['jun', 'chon', 'jon', 'chun'],
  go: ['ko', 'koh'],
  mun: ['moon'],
  son: ['sohn'],
  bae: ['pae'],
  baek: ['paek', 'baik'],
  heo: ['hur', 'huh'],
  sim: ['shim'],
  no: ['roh', 'noh', 'ro'],
  gwak: ['kwak'],
  seong: ['sung', 'song'],
  ju: ['joo', 'chu'],
  u: ['woo'],
  gu: ['koo', 'ku'],
  jin: ['chin'],
};

/** Revised Romanization letters and their McCune–Reischauer counterparts. */
const INITIALS: [string, string][] = [
  ['g', 'k'],
  ['d', 't'],
  ['b', 'p'],
  ['j', 'ch'],
  ['j', 'j'],
];
const VOWELS: [string, string][] = [
  ['eo', 'o'],
  ['eo', 'u'],
  ['eu', 'u'],
  ['ae', 'ae'],
];

/** Every spelling of one romanized Hangul syllable (or surname), itself included. */
export function koreanSpellings(syllable: string): readonly string[] {
  let known = SPELLINGS.get(syllable);
  if (!known) SPELLINGS.set(syllable, (known = spellingsOf(syllable)));
  return known;
}

/** Syllables are few (a few thousand): each one's spellings are worked out once. */
const SPELLINGS = new Map<string, readonly string[]>();

function spellingsOf(syllable: string): string[] {
  const out = new Set([syllable]);
  // The final ㄱ is g in some readers' output and k in every list (박 → bag → bak).
  if (syllable.endsWith('g') && !syllable.endsWith('ng')) out.add(`${syllable.slice(0, -1)}k`);
  // An initial ㄹ: l in the reader's output, r in the North's spelling (Ri, Ryu, Ro), and in the
  // South's dropped before i and y (Yi, Yu) and n before other vowels (Na, No).
  if (/^[lr][aeiouwy]/.test(syllable)) {
    const rest = syllable.slice(1);
    for (const initial of ['r', 'l', /^[iy]/.test(rest) ? '' : 'n']) out.add(initial + rest);
  }
  for (const form of [...out]) {
    for (const [rr, mr] of INITIALS) if (form.startsWith(rr)) out.add(mr + form.slice(rr.length));
  }
  for (const form of [...out]) {
    for (const [rr, mr] of VOWELS) if (form.includes(rr)) out.add(form.replace(rr, mr));
  }
  for (const form of [...out]) for (const spelling of SURNAMES[form] ?? []) out.add(spelling);
  return [...out];
}

const HANGUL = /\p{Script=Hangul}/u;
export const isHangul = (glyph: string | undefined): boolean => glyph !== undefined && HANGUL.test(glyph);
