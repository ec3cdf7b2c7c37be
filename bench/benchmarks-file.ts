/**
 * Writes a benchmark's figures into BENCHMARKS.md under its own heading, replacing the previous
 * run of the same benchmark, with the machine, date and commit, so figures can be compared.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

const FILE = 'BENCHMARKS.md';

export function recordBenchmark(title: string, command: string, table: string[]) {
  const commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const section = [`## ${title}`, '', `\`${command}\` on ${new Date().toISOString().slice(0, 10)}, commit ${commit}, ${machine}.`, '', ...table, ''].join('\n');
  const current = fs.existsSync(FILE)
    ? fs.readFileSync(FILE, 'utf8')
    : '# Benchmarks\n\nFigures written by `npm run bench:*`; each run replaces its own section.\n\n';
  const pattern = new RegExp(`## ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n[\\s\\S]*?(?=\\n## |$)`);
  fs.writeFileSync(FILE, pattern.test(current) ? current.replace(pattern, section) : `${current.trimEnd()}\n\n${section}`);
}
