/**
 * Set (f), Korean names as Koreans write them: in Hangul, and in Chinese characters (Hanja), from
 * the romanized names the lists give (KIM Jong Un → 김정은, and a Hanja spelling such as 金正恩).
 *
 * Each romanized syllable is mapped back to the Hangul syllables that romanize to it, in the
 * systems the lists use: Revised Romanization, McCune–Reischauer without its marks, the North's
 * own (RI, KHANG, THAEK), the customary surname spellings (LEE, PARK, CHOI) and, for the family
 * name, the South's initial-sound rule (리 → I, 류 → YU, 로 → NO). Each Hangul syllable that a Chinese character reads as (the
 * `hanja` package's table of Sino-Korean readings, North-Korean style: 李 → 리) gives the Hanja.
 * The choice among the candidates is seeded by the name. A name with a syllable that maps to no
 * Sino-Korean reading, or with a word of more than two syllables (a Chinese name run together,
 * Jiadong), is left out. Written by this evaluation, independently of the engine's tables.
 */
import { createRequire } from 'node:module';
import type { ListEntity } from '../../../src/screening/model.ts';
import { pick, randomFor } from '../perturb.ts';
import { type ClassVariant, findCase } from './class-case.ts';
import { foldToken } from './words.ts';

const HANJA_READINGS = createRequire(import.meta.url)('hanja/lib/data/hanjaeum.json') as Record<string, string>;

/** Surnames whose reading differs from the character's reading as a word (金 is 금 as "gold", 김 as a name). */
const SURNAME_HANJA: Record<string, string[]> = { 김: ['金'], 심: ['沈'] };

/** Jamo spellings, in the order of the Unicode syllable blocks. */
// biome-ignore format: one entry per jamo, in Unicode order, read by index
const INITIALS = [['g', 'k'], ['kk', 'gg'], ['n'], ['d', 't'], ['tt'], ['r', 'l'], ['m'], ['b', 'p'], ['pp'], ['s'], ['ss'], [''], ['j', 'ch'], ['jj'], ['ch'], ['k', 'kh'], ['t', 'th'], ['p', 'ph'], ['h']];
// biome-ignore format: one entry per jamo, in Unicode order, read by index
const MEDIALS = [['a'], ['ae'], ['ya'], ['yae'], ['eo', 'o', 'u'], ['e'], ['yeo', 'yo'], ['ye'], ['o'], ['wa'], ['wae'], ['oe'], ['yo'], ['u', 'oo'], ['wo'], ['we'], ['wi'], ['yu'], ['eu', 'u'], ['ui'], ['i']];
/** Sino-Korean syllables end only in ㄱ ㄴ ㄹ ㅁ ㅂ ㅇ; the other finals are read by their sound. */
// biome-ignore format: one entry per jamo, in Unicode order, read by index
const FINALS = [[''], ['k', 'g'], ['k'], ['k'], ['n'], ['n'], ['n'], ['t'], ['l'], ['k'], ['m'], ['l'], ['l'], ['l'], ['p'], ['l'], ['m'], ['p', 'b'], ['p'], ['t'], ['t'], ['ng'], ['t'], ['t'], ['k'], ['t'], ['p'], ['t']];
/** Vowels that start with an i or y sound: ㅅ before them is also written sh, and the initial-sound rule drops ㄹ and ㄴ. */
const Y_VOWELS = new Set([2, 3, 6, 7, 12, 17, 20]);
const S = 9;
const N = 2;
const R = 5;

/** The customary spellings of common surnames, beside the systematic ones. */
// biome-ignore format: a word table, packed by hand
const CUSTOMARY: Record<string, string[]> = {
  이: ['lee', 'yi', 'rhee'], 리: ['lee', 'li', 'yi', 'rhee'], 박: ['park'], 최: ['choi', 'chwe'], 정: ['chung', 'jung'], 조: ['joe'], 윤: ['yoon'],
  임: ['lim'], 림: ['lim'], 오: ['oh'], 서: ['suh'], 안: ['ahn'], 유: ['yoo'], 류: ['yoo', 'ryoo'], 고: ['koh'], 문: ['moon'], 손: ['sohn'],
  백: ['paik', 'baik'], 허: ['huh', 'hur'], 노: ['roh', 'noh'], 로: ['roh'], 주: ['joo'], 우: ['woo'], 구: ['koo'],
};

/** Every way the lists may romanize one Hangul syllable; `asFamilyName` adds the initial-sound rule's. */
export function romanizations(syllable: string, asFamilyName: boolean): string[] {
  const code = (syllable.codePointAt(0) ?? 0) - 0xac00;
  if (code < 0 || code >= 11172) return [];
  const [initial, medial, final] = [Math.floor(code / 588), Math.floor((code % 588) / 28), code % 28];
  const initials = new Set(INITIALS[initial]);
  if (initial === S && Y_VOWELS.has(medial)) initials.add('sh');
  if (asFamilyName && (initial === R || initial === N) && Y_VOWELS.has(medial)) initials.add('');
  if (asFamilyName && initial === R && !Y_VOWELS.has(medial)) initials.add('n');
  const out = new Set(CUSTOMARY[syllable]);
  for (const i of initials) for (const m of MEDIALS[medial] as string[]) for (const f of FINALS[final] as string[]) out.add(i + m + f);
  return [...out];
}

/** Hangul reading → the Hanja that read so (the basic CJK block only: the characters names use). */
const HANJA_BY_READING = new Map<string, string[]>();
for (const [hanja, reading] of Object.entries(HANJA_READINGS)) {
  const cp = hanja.codePointAt(0) ?? 0;
  if (cp < 0x4e00 || cp > 0x9fff) continue;
  HANJA_BY_READING.set(reading, [...(HANJA_BY_READING.get(reading) ?? []), hanja]);
}

/** Romanized syllable → the Sino-Korean Hangul syllables it may stand for, as a family name and as any other syllable. */
function bySpelling(asFamilyName: boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const syllable of new Set([...HANJA_BY_READING.keys(), ...Object.keys(SURNAME_HANJA)])) {
    for (const spelling of romanizations(syllable, asFamilyName)) out.set(spelling, [...(out.get(spelling) ?? []), syllable]);
  }
  return out;
}
const FAMILY_SYLLABLES = bySpelling(true);
const SYLLABLES = bySpelling(false);
const syllablesFor = (spelling: string, position: number) => (position === 0 ? FAMILY_SYLLABLES : SYLLABLES).get(spelling) ?? [];

/** The reading of one Hanja of a name; `asSurname` for the first character. */
export function hanjaReading(hanja: string, asSurname: boolean): string | undefined {
  const surname = asSurname ? Object.entries(SURNAME_HANJA).find(([, chars]) => chars.includes(hanja))?.[0] : undefined;
  return surname ?? HANJA_READINGS[hanja];
}

/** One word of a romanized name as one syllable or two run together (Yongwon → yong won: the longer first syllable). */
function segment(word: string, position: number): string[] | undefined {
  if (syllablesFor(word, position).length > 0) return [word];
  for (let end = word.length - 1; end >= 1; end--) {
    const [head, tail] = [word.slice(0, end), word.slice(end)];
    if (syllablesFor(head, position).length > 0 && syllablesFor(tail, position + 1).length > 0) return [head, tail];
  }
  return undefined;
}

/** A romanized Korean name, family name first, as 2 to 4 syllables; undefined when it does not read as one. */
export function koreanSyllables(name: string): string[] | undefined {
  const syllables: string[] = [];
  for (const word of name
    .split(/[\s,-]+/)
    .map(foldToken)
    .filter(Boolean)) {
    const pieces = segment(word, syllables.length);
    if (!pieces) return undefined;
    syllables.push(...pieces);
  }
  return syllables.length >= 2 && syllables.length <= 4 ? syllables : undefined;
}

export function inHangul(name: string): string | undefined {
  const syllables = koreanSyllables(name);
  if (!syllables) return undefined;
  const random = randomFor(name, 'hangul');
  return syllables.map((s, i) => pick(random, syllablesFor(s, i))).join('');
}

export function inHanja(name: string): string | undefined {
  const syllables = koreanSyllables(name);
  if (!syllables) return undefined;
  const random = randomFor(name, 'hanja');
  const choices = syllables.map((spelling, i) =>
    syllablesFor(spelling, i).flatMap((r) => [...(i === 0 ? (SURNAME_HANJA[r] ?? []) : []), ...(HANJA_BY_READING.get(r) ?? [])]),
  );
  return choices.every((c) => c.length > 0) ? choices.map((c) => pick(random, c)).join('') : undefined;
}

/** Korean people of the SDN and UN lists (DPRK programs), family name first as Koreans write it. */
function koreanOrder(entity: ListEntity): string | undefined {
  if (!(entity.list === 'OFAC_SDN' || entity.list === 'UN_SC') || !entity.programs.some((p) => /DPRK|korea/i.test(p))) return undefined;
  const primary = entity.names.find((n) => n.kind === 'primary');
  if (!primary) return undefined;
  // The SDN writes "FAMILY, Given"; the UN writes Korean names family name first.
  return primary.family && primary.given ? `${primary.family} ${primary.given}` : primary.full.replace(',', ' ');
}

export function koreanScriptVariants(persons: readonly ListEntity[]): ClassVariant[] {
  const variants: [string, (name: string) => string | undefined][] = [
    ['Korean in Hangul', inHangul],
    ['Korean in Hanja', inHanja],
  ];
  return variants.map(([variant, write]) => ({
    name: variant,
    cases: persons.flatMap((entity) => {
      const name = koreanOrder(entity);
      const query = name && write(name);
      return query ? [findCase(entity, { name: query, kind: 'person' }, `listed: ${entity.names[0]?.full}`)] : [];
    }),
  }));
}
