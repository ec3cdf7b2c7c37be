/**
 * Words that carry little identity in a name: legal forms, honorifics, name particles and
 * connectives. They are kept (a listed "Siemens Bank" is not "Siemens") but weighed lightly, and a
 * match on them alone is never a match. Written as folded text (see fold.ts), after dots are gone.
 *
 * Built for the forms that occur on the lists we screen (OFAC's most common last tokens are
 * COMPANY, LIMITED, LTD, C.V, LLC, S.A, OOO, CO, SIRKETI, LTDA, FZE, INC, GMBH; the test checks the
 * coverage against rigour's multilingual tables when the reference data is present).
 */
import { editDistance } from './edit-distance.ts';
import { numberAt } from './number-words.ts';

/**
 * State designations in English. Whole, they are a legal form; their words alone (State, Federal,
 * Enterprise) are ordinary words of names (Islamic State, Department of State), never a fragment
 * of a legal form (see LEGAL_PHRASE_WORDS).
 */
// biome-ignore format: a word table, packed by hand
const STATE_DESIGNATIONS_IN_ENGLISH = [
  'state corporation', 'state company', 'state enterprise', 'state owned enterprise', 'state owned company', 'state unitary enterprise',
  'federal state unitary enterprise', 'federal state enterprise', 'federal state budgetary institution', 'federal state institution',
  'federal state budgetary enterprise', 'federal state autonomous institution', 'municipal unitary enterprise',
];

/** Legal forms, each spelling mapped to its class; multi-word spellings are matched first. */
// biome-ignore format: a word table, packed by hand
const LEGAL_FORM_CLASSES: Record<string, string[]> = {
  ltd: ['ltd', 'limited', 'ltd co', 'pt', 'perseroan terbatas', 'ltda', 'limitada', 'co ltd', 'company limited', 'pte ltd', 'pty ltd', 'pvt ltd', 'private limited', 'limited company', 'sdn bhd', 'bhd', 'berhad', 'sendirian berhad', 'pte', 'pty', 'pvt'],
  llc: ['gesellschaft mit beschrankter haftung', 'societatea cu raspundere limitata', 'obshchestvo s ogranichennoi otvetstvennostiu', 'obshchestvo s ogranichennoy otvetstvennostyu', 'obshchestvo s ogranichennoi otvetstvennostyu', 'tovaristvo z obmezhenoyu vidpovidalnistyu', 'sociedad de responsabilidad limitada', 'societe a responsabilite limitee', 'societa a responsabilita limitata', 'llc', 'l l c', 'limited liability company', 'ooo', 'too', 'tov', 'mchj', 'obshchestvo s ogranichennoy otvetstvennostyu', 'fz llc', 'fzllc', 'llp', 'limited liability partnership', 'sp z oo', 'spzoo', 'srl', 'sarl', 'sprl', 'gmbh', 'doo', 'dooel', 'sro', 'kft', 'ooo pkf', 'eood', 'ood', 'tnhh', 'limited sirketi', 'ltd sti', 'ltd sirketi', 'ltdsti', 'sti'],
  jsc: ['aktiengesellschaft', 'publichnoe aktsionernoe obshchestvo', 'otkrytoe aktsionernoe obshchestvo', 'zakrytoe aktsionernoe obshchestvo', 'societe anonyme', 'sociedad anonima', 'societa per azioni', 'naamloze vennootschap', 'jsc', 'ojsc', 'cjsc', 'pjsc', 'ao', 'oao', 'zao', 'pao', 'ojs', 'joint stock company', 'open joint stock company', 'closed joint stock company', 'public joint stock company', 'aktsionernoe obshchestvo', 'akcionernoe obshchestvo', 'ag', 'sa', 'sas', 'spa', 'nv', 'as', 'asa', 'ab', 'oy', 'oyj', 'aps', 'ad', 'dd', 'zrt', 'nyrt', 'sae', 'sal', 'saog', 'saoc', 'psc', 'pjs', 'tbk', 'ca', 'anonim sirketi', 'as sirketi', 'a s', 'kk', 'kabushiki kaisha', 'jsc co'],
  inc: ['inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'cie', 'cia', 'compania', 'companhia', 'kompaniya', 'sirketi', 'sirket', 'kompania', 'kabushiki gaisha'],
  plc: ['plc', 'public limited company'],
  partnership: ['lp', 'kg', 'gmbh co kg', 'gmbh und co kg', 'co kg', 'ohg', 'snc', 'scs', 'cv', 'sa de cv', 'sa de cv sofom', 'sapi de cv', 's de rl de cv', 's de rl', 'de cv', 'de rl', 'sc', 'sociedad civil'],
  free_zone: ['fze', 'fzco', 'fzc', 'fz co', 'fzs', 'dmcc', 'wll', 'spc', 'est', 'establishment', 'llc fz'],
  bv: ['bv', 'besloten vennootschap'],
  // Designations of state ownership, which Russian, Chinese and other state-owned listings carry
  // in full (STATE CORPORATION …, FEDERAL STATE UNITARY ENTERPRISE …) and people leave out.
  state: [
    ...STATE_DESIGNATIONS_IN_ENGLISH, 'soe', 'fsue', 'fgup', 'gup', 'mup', 'fgbu', 'fgu', 'fkp', 'fgau',
    'gosudarstvennaya korporatsiya', 'goskorporatsiya', 'federalnoe gosudarstvennoe unitarnoe predpriyatie', 'gosudarstvennoe unitarnoe predpriyatie',
    'federalnoe gosudarstvennoe byudzhetnoe uchrezhdenie', 'federalnoe kazennoe predpriyatie',
  ],
  // Russian defense-industry designations of a scientific-production association or enterprise,
  // abbreviated, transliterated and in English. Not "institute" or "design bureau": bodies named
  // for their field (Scientific Research Institute of Steel) would be left with a common word.
  research: [
    'npo', 'npp', 'nauchno proizvodstvennoe obedinenie', 'nauchno proizvodstvennoe predpriyatie',
    'scientific production association', 'scientific production enterprise', 'scientific and production association', 'scientific and production enterprise',
    'research and production association', 'research and production enterprise', 'research and production corporation',
  ],
  // Turkish companies' standard description of their trade ("industry and trade", "import export"),
  // which registers carry in full before the legal form and people leave out.
  trade: ['sanayi ve ticaret', 'ticaret ve sanayi', 'ic ve dis ticaret', 'dis ticaret', 'ithalat ihracat', 'ithalat ve ihracat', 'ticaret', 'sanayi'],
  // Chinese legal forms as their characters read in pinyin (有限公司, 股份有限公司, 有限责任公司, 公司).
  han: ['gu fen you xian gong si', 'you xian ze ren gong si', 'you xian gong si', 'gong si', 'ji tuan you xian gong si', 'ji tuan gong si'],
};

/**
 * Honorifics and titles: dropped from persons' names (Sheikh, Haji, General, Dr …). Words that are
 * also common given names (Amir, Emir, Imam, Hafiz) are left out: dropping a real name costs more.
 */
// biome-ignore format: a word table, packed by hand
const HONORIFICS = [
  'mr', 'mrs', 'ms', 'miss', 'mister', 'madam', 'madame', 'mme', 'monsieur', 'herr', 'frau', 'senor', 'senora',
  'president', 'prasident', 'presidente', 'prime minister', 'minister', 'senator', 'dr', 'doctor', 'prof', 'professor', 'sir', 'dame', 'lord', 'lady', 'eng', 'engineer', 'ing',
  'sheikh', 'shaikh', 'sheik', 'shaykh', 'haji', 'hajji', 'hadji', 'alhaj', 'alhaji', 'mullah', 'mulla', 'maulawi',
  'mawlawi', 'maulvi', 'moulavi', 'mawlana', 'maulana', 'qari', 'ayatollah', 'hojatoleslam',
  'general', 'gen', 'colonel', 'col', 'major', 'maj', 'captain', 'capt', 'lieutenant', 'lt', 'admiral', 'adm',
  'brigadier', 'brig', 'commander', 'cmdr', 'sergeant', 'sgt', 'marshal', 'his excellency', 'her excellency',
  'hon', 'honorable', 'honourable', 'rev', 'reverend', 'dipl ing', 'mag', 'mgr', 'phd', 'md', 'esq',
];

/**
 * Generational suffixes (Jr, Sr., III): they tell a father from his son, not one name from another,
 * so they are not name words. Never the first word (Junior is also a given name), and a Roman
 * numeral only as the last (II, III, IV close a name; elsewhere they may be initials).
 */
const GENERATIONAL = new Set(['jr', 'jnr', 'junior', 'sr', 'snr', 'senior']);
const GENERATIONAL_NUMERALS = new Set(['ii', 'iii', 'iv']);
const generational = (words: readonly string[], at: number) =>
  at > 0 && (GENERATIONAL.has(words[at] as string) || (at === words.length - 1 && GENERATIONAL_NUMERALS.has(words[at] as string)));

/** Ship prefixes (MV Hellenic Spirit, M/T Arman 114): dropped at the start of a craft's or company's name. */
const VESSEL_PREFIXES = ['mv', 'mt', 'm v', 'm t', 'fv'];

/**
 * Particles inside personal names (al, bin, abu, van, de, Mc …): kept, lightly weighed, often merged.
 * Abd (Abdul, Abdel …, "servant of") is not among them: it begins a name of its own (Abdul
 * Rahman), and an Abdul where the list has Azim is a different name, not a missing article.
 */
// biome-ignore format: a word table, packed by hand
const PARTICLES = [
  'al', 'el', 'ul', 'ad', 'ar', 'as', 'ash', 'at', 'az', 'bin', 'ben', 'ibn', 'bint', 'binti', 'abu', 'abou', 'bou', 'ould',
  'van', 'von', 'der', 'den', 'de', 'da', 'di', 'del', 'della', 'dos', 'das', 'du', 'la', 'le', 'y', 'e', 'zu', 'ter', 'mc', 'mac',
];

/**
 * Spellings of one particle: the Arabic article as transliterated (al, el, ul) and assimilated to
 * the next sound (ad-Din, ash-Sharif, as-Sayed), son of (bin, ben, ibn; Mc, Mac), father of (abu, abou, bou).
 */
const PARTICLE_GROUPS = [
  ['al', 'el', 'ul', 'ad', 'ar', 'as', 'ash', 'at', 'az'],
  ['bin', 'ben', 'ibn'],
  ['bint', 'binti'],
  ['abu', 'abou', 'bou'],
  ['mc', 'mac'],
];
const PARTICLE_GROUP_OF = new Map(PARTICLE_GROUPS.flatMap((group, i) => group.map((p) => [p, i] as const)));

/** True when two different particles are spellings of one (bin and ben, al and el). */
export function sameParticle(a: string, b: string): boolean {
  const group = PARTICLE_GROUP_OF.get(a);
  return group !== undefined && group === PARTICLE_GROUP_OF.get(b);
}

/** Words that connect rather than name in organizations' names: "Bank of X", "X and Y Trading". */
const CONNECTIVES = ['the', 'and', 'of', 'for', 'und', 'et', 'i', 'a', 'an'];

export type WordRole = 'name' | 'patronymic' | 'legal_form' | 'honorific' | 'particle' | 'connective' | 'number';

/**
 * Patronymics (Vladimirovich, Petrovna, Aliyevich, Mammad oglu): a person's father's name, which
 * lists give and visitors often leave out. They still count, at a lower weight than a given or
 * family name. Only after the first word, so ABRAMOVICH, Roman keeps his family name.
 */
const PATRONYMIC = /^[a-z]{3,}(ovich|evich|yevich|ovych|evych|ovna|evna|yevna|ivna|ichna|ogly|oglu|qizi|kyzy)$/;

/** Phrases by their first word, longest first, so each word is checked against a handful, not all. */
function byFirstWord(phrases: Iterable<string>): Map<string, string[][]> {
  const index = new Map<string, string[][]>();
  for (const phrase of phrases) {
    const words = phrase.split(' ');
    const list = index.get(words[0] as string) ?? [];
    list.push(words);
    index.set(words[0] as string, list);
  }
  for (const list of index.values()) list.sort((a, b) => b.length - a.length);
  return index;
}

const LEGAL_FORM_OF = new Map(Object.entries(LEGAL_FORM_CLASSES).flatMap(([cls, spellings]) => spellings.map((s) => [s, cls] as const)));
const LEGAL_FORM_PHRASES = byFirstWord(LEGAL_FORM_OF.keys());
const HONORIFIC_PHRASES = byFirstWord(HONORIFICS);
const VESSEL_PREFIX_PHRASES = byFirstWord(VESSEL_PREFIXES);
const PARTICLE_SET = new Set(PARTICLES);
const CONNECTIVE_SET = new Set(CONNECTIVES);

/** True when the words are one legal form and nothing else (JSC, Limited Liability Company). */
export const isLegalFormPhrase = (words: readonly string[]): boolean => LEGAL_FORM_OF.has(words.join(' '));

/** The longest phrase from `phrases` starting at `words[at]`, as a word count; 0 when none. */
function phraseAt(words: readonly string[], at: number, phrases: Map<string, string[][]>): number {
  for (const phrase of phrases.get(words[at] as string) ?? []) {
    if (phrase.length > words.length - at) continue;
    let same = true;
    for (let i = 1; i < phrase.length && same; i++) same = words[at + i] === phrase[i];
    if (same) return phrase.length;
  }
  return 0;
}

/** `guessed`: a legal form recognized from a misspelling or a fragment, given up first when nothing else would identify the name. */
/** `numeral`: a number written in words or Roman numerals, as digits (Forty-Four → 44, VII → 7). */
export type RoleSpan = { start: number; length: number; role: WordRole; legalForm?: string; numeral?: string; guessed?: boolean };

/**
 * One-word legal forms long enough that a misspelling is still recognizable (LIMIITED, COMPNAY,
 * CORPORTAION). Short ones (LLC, GMBH) are not guessed at: one letter off is another word.
 */
const LONG_LEGAL_WORDS = [...LEGAL_FORM_OF.keys()].filter((s) => !s.includes(' ') && s.length >= 7);
/**
 * Short forms (GMBH, LTDA, FZCO) are recognized misspelled only as a name's last word, where they
 * sit, and only with their own letters swapped or one doubled (GMHB, LTDDA): one letter changed
 * makes another word (CORA is not CORP).
 */
const SHORT_LEGAL_WORDS = [...LEGAL_FORM_OF.keys()].filter((s) => !s.includes(' ') && s.length >= 4 && s.length < 7);

/**
 * The words of multi-word legal forms (OBSHCHESTVO, OGRANICHENNOI, AKTSIONERNOE, SOCIEDAD,
 * RESPONSABILIDAD …). When a name carries only part of the phrase — a word dropped or misspelled —
 * the words left are still legal-form words, each its own class, not names.
 */
const ENGLISH_DESIGNATION_WORDS = new Set(STATE_DESIGNATIONS_IN_ENGLISH.flatMap((s) => s.split(' ')));
const LEGAL_PHRASE_WORDS = new Set(
  [...LEGAL_FORM_OF.keys()].filter((s) => s.includes(' ')).flatMap((s) => s.split(' ').filter((w) => w.length >= 5 && !ENGLISH_DESIGNATION_WORDS.has(w))),
);
const LONG_LEGAL_PHRASE_WORDS = [...LEGAL_PHRASE_WORDS].filter((w) => w.length >= 7);

function legalPhraseWord(word: string): string | undefined {
  if (LEGAL_PHRASE_WORDS.has(word)) return word;
  if (word.length < 7) return undefined;
  return LONG_LEGAL_PHRASE_WORDS.find((w) => w[0] === word[0] && Math.abs(w.length - word.length) <= 2 && editDistance(word, w, 2) <= 2);
}

const sorted = (word: string) => [...word].sort().join('');
const undoubled = (word: string) => word.replace(/(.)\1+/g, '$1');
const sameLetters = (word: string, spelling: string) =>
  (word.length === spelling.length && sorted(word) === sorted(spelling)) || (word !== spelling && undoubled(word) === undoubled(spelling));

function misspelledLegalForm(word: string, isLast: boolean): string | undefined {
  if (word.length >= 6) {
    const long = LONG_LEGAL_WORDS.find((s) => Math.abs(s.length - word.length) <= 2 && s[0] === word[0] && editDistance(word, s, 2) <= 2);
    if (long) return LEGAL_FORM_OF.get(long);
  }
  if (!isLast || word.length < 4) return undefined;
  const short = SHORT_LEGAL_WORDS.find((s) => s[0] === word[0] && sameLetters(word, s));
  return short && LEGAL_FORM_OF.get(short);
}

const identifying = (span: RoleSpan) => span.role === 'name' || span.role === 'number' || span.role === 'patronymic';
const asNames = (span: RoleSpan): RoleSpan[] => Array.from({ length: span.length }, (_, i) => ({ start: span.start + i, length: 1, role: 'name' }));

/**
 * A name must keep a word that identifies it. If tagging left none ("LLC SPEL", "PTE OOO",
 * "EL SENOR"), the guesses go back to being names, and failing that every word is a name.
 */
function keepIdentity(spans: RoleSpan[]): RoleSpan[] {
  if (spans.some(identifying)) return spans;
  const withoutGuesses = spans.flatMap((span) => (span.guessed ? asNames(span) : [span]));
  return withoutGuesses.some(identifying) ? withoutGuesses : spans.flatMap(asNames);
}

/**
 * Tags each folded word of a name with its role. Legal forms are only looked for in names that
 * are not persons' and honorifics only in persons', so a Mr Inc or a Colonel Trading Co keeps its words.
 */
export function tagRoles(words: readonly string[], isPerson: boolean): RoleSpan[] {
  const spans: RoleSpan[] = [];
  for (let at = 0; at < words.length; ) {
    const word = words[at] as string;
    const legal = isPerson ? 0 : phraseAt(words, at, LEGAL_FORM_PHRASES);
    // A lone legal-form word that is the whole name is the name ("SA" is nobody's legal form there).
    if (legal > 0 && legal < words.length) {
      spans.push({ start: at, length: legal, role: 'legal_form', legalForm: LEGAL_FORM_OF.get(words.slice(at, at + legal).join(' ')) as string });
      at += legal;
      continue;
    }
    const number = isPerson ? undefined : numberAt(words, at);
    if (number) {
      spans.push({ start: at, length: number.length, role: 'number', numeral: number.value });
      at += number.length;
      continue;
    }
    const misspelled = isPerson || at === 0 ? undefined : misspelledLegalForm(word, at === words.length - 1);
    const fragment = isPerson || misspelled || words.length < 2 ? undefined : legalPhraseWord(word);
    if (fragment) {
      spans.push({ start: at, length: 1, role: 'legal_form', legalForm: fragment, guessed: true });
      at += 1;
      continue;
    }
    if (misspelled) {
      spans.push({ start: at, length: 1, role: 'legal_form', legalForm: misspelled, guessed: true });
      at += 1;
      continue;
    }
    const honorific = isPerson
      ? generational(words, at)
        ? 1
        : phraseAt(words, at, HONORIFIC_PHRASES)
      : at === 0 && words.length > 2
        ? phraseAt(words, at, VESSEL_PREFIX_PHRASES)
        : 0;
    if (honorific > 0 && honorific < words.length) {
      spans.push({ start: at, length: honorific, role: 'honorific' });
      at += honorific;
      continue;
    }
    const role: WordRole = /\d/.test(word)
      ? 'number'
      : isPerson && at > 0 && PATRONYMIC.test(word)
        ? 'patronymic'
        : PARTICLE_SET.has(word) && at < words.length - 1
          ? 'particle' // a particle leads into a name: one that ends the name is the name (KO TAE BIN)
          : !isPerson && CONNECTIVE_SET.has(word) && words.length > 1
            ? 'connective'
            : 'name';
    spans.push({ start: at, length: 1, role });
    at += 1;
  }
  return keepIdentity(spans);
}
