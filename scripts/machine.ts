// The machine a measurement ran on, recorded beside every benchmark and soak figure:
// figures from a busy or different machine do not compare.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export function machine() {
  const cpus = os.cpus();
  let gitCommit: string | null = null;
  try {
    gitCommit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    date: new Date().toISOString(),
    gitCommit,
    loadAvgAtStart: os.loadavg(),
  };
}
