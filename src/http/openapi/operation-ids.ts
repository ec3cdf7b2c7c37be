/**
 * Each operation's `operationId`, derived from its method and path alone, so it is unique (two
 * operations cannot share both) and stable (adding or renaming another route changes no other
 * id). SDK generators name their methods after it: `POST /api/v1/adjudication/{id}/disposition`
 * becomes `postAdjudicationByIdDisposition`.
 */
const PREFIX = /^\/api(\/v1)?\//;

export function operationIdFor(method: string, path: string): string {
  const words = path
    .replace(PREFIX, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const parameter = /^\{(.+)\}$/.exec(segment);
      return parameter ? ['by', ...wordsOf(parameter[1] as string)] : wordsOf(segment);
    });
  return [method.toLowerCase(), ...words.map(capitalize)].join('');
}

const wordsOf = (segment: string) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
