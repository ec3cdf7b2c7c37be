/**
 * Seeded, documented name perturbations for the temporal hold-out and the benchmark's typo
 * queries. The random stream is seeded from the name itself, so a name always gets the same
 * variant, run after run, whatever else is in the set.
 *
 * - typo: one edit in one token of 4+ letters: substitution, transposition of neighbours,
 *   deletion or doubling.
 * - dropMiddle: a name of 3+ tokens loses one token that is neither first nor last.
 * - commaInvert: `A B C` → `C, A B`, and a name already written `LAST, First` → `First LAST`.
 */
import { stableHash } from './split.ts';

/** mulberry32: a small, fast, good-enough PRNG. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with a seeded source: the same seed, the same order. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The random stream for one name and one kind of perturbation: the same name, the same variant. */
export const randomFor = (name: string, salt: string) => seededRandom(stableHash(`${salt}:${name}`));
export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A variant that cannot simply be undone by lower-casing: undefined when no token is long enough. */
export function typo(name: string): string | undefined {
  const random = randomFor(name, 'typo');
  const tokens = name.split(' ');
  const candidates = tokens.map((t, i) => [t, i] as const).filter(([t]) => /^\p{L}{4,}$/u.test(t.replace(/[,.]$/, '')));
  if (candidates.length === 0) return undefined;
  const [token, at] = pick(random, candidates);
  const upper = token === token.toUpperCase();
  const word = token.replace(/[,.]$/, '');
  const tail = token.slice(word.length);
  const position = 1 + Math.floor(random() * (word.length - 2)); // keep the first and last letters
  const letter = (c: string) => (upper ? c.toUpperCase() : c);
  let changed: string;
  switch (Math.floor(random() * 4)) {
    case 0: {
      const options = [...LETTERS].map(letter).filter((c) => c.toLowerCase() !== word[position]?.toLowerCase());
      changed = word.slice(0, position) + pick(random, options) + word.slice(position + 1);
      break;
    }
    case 1:
      changed = word.slice(0, position) + word[position + 1] + word[position] + word.slice(position + 2);
      break;
    case 2:
      changed = word.slice(0, position) + word.slice(position + 1);
      break;
    default:
      changed = word.slice(0, position + 1) + word.slice(position);
  }
  if (changed === word) return undefined;
  return tokens.map((t, i) => (i === at ? changed + tail : t)).join(' ');
}

export function dropMiddle(name: string): string | undefined {
  const tokens = unlistName(name).split(' ');
  if (tokens.length < 3) return undefined;
  const drop = 1 + Math.floor(randomFor(name, 'drop')() * (tokens.length - 2));
  return tokens.filter((_, i) => i !== drop).join(' ');
}

export function commaInvert(name: string): string | undefined {
  if (unlistName(name) !== name) return unlistName(name);
  const tokens = name.split(' ');
  if (tokens.length < 2) return undefined;
  return `${tokens.at(-1)}, ${tokens.slice(0, -1).join(' ')}`;
}

/** `LAST, First Middle` → `First Middle LAST`: the order a visitor would type. */
export function unlistName(name: string): string {
  const comma = name.indexOf(', ');
  if (comma < 0 || name.indexOf(', ', comma + 1) >= 0) return name;
  return `${name.slice(comma + 2)} ${name.slice(0, comma)}`;
}
