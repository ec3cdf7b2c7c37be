/**
 * A copy of a string that shares nothing with the string it came from. V8 keeps a slice as a view
 * on its parent (so one short cell keeps a whole parsed document alive) and `a + b` as a rope of
 * two parts (which a map key then flattens beside itself); both cost memory when the string is
 * kept for the life of an index. A JSON round trip is the portable way to get a fresh, flat string.
 */
export const detachedString = (text: string): string => JSON.parse(JSON.stringify(text)) as string;
