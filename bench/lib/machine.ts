import { cpus, release, totalmem, type as osType } from 'node:os';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memory_gb: number;
  readonly os: string;
  readonly node: string;
  readonly date: string;
}

export function describeMachine(): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    date: new Date().toISOString(),
  };
}
