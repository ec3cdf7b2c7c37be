import { createRequire } from 'node:module';

/** The package version, as written in package.json. */
export const VERSION: string = createRequire(import.meta.url)('../package.json').version;
