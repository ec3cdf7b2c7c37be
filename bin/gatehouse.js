#!/usr/bin/env node
// The `gatehouse` command. The sources are TypeScript run through tsx's loader, so a fresh
// clone works after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
