import { describe, expect, it } from 'vitest';
import { expandWord, parseCommandLine } from '../../src/shell/parser.js';

const argv = (line: string, env = new Map<string, string>()): string[][] =>
  parseCommandLine(line).flatMap((item) => item.pipeline.map((c) => c.words.map((w) => expandWord(w, env))));

describe('shell parser', () => {
  it('splits on blanks and keeps quoted text whole', () => {
    expect(argv(`am start -n 'com.x/.A b' "two words" back\\ slash`)).toEqual([
      ['am', 'start', '-n', 'com.x/.A b', 'two words', 'back slash'],
    ]);
  });

  it('joins lists with ; && || and pipelines with |', () => {
    const items = parseCommandLine('a; b && c || d | e');
    expect(items.map((i) => i.connector)).toEqual([';', ';', '&&', '||']);
    expect(items[3]?.pipeline).toHaveLength(2);
  });

  it('parses redirections, including 2>&1 and </dev/null', () => {
    const [item] = parseCommandLine('cmd arg >/sdcard/out 2>&1 </dev/null');
    const command = item?.pipeline[0];
    expect(command?.words).toHaveLength(2);
    expect(command?.redirections.map((r) => [r.fd, r.op, expandWord(r.target, new Map())])).toEqual([
      [1, '>', '/sdcard/out'],
      [2, '>&', '1'],
      [0, '<', '/dev/null'],
    ]);
  });

  it('expands variables except inside single quotes', () => {
    expect(argv(`echo $A "\${A}x" '$A'`, new Map([['A', 'v']]))).toEqual([['echo', 'v', 'vx', '$A']]);
  });

  it('reports unterminated quotes as syntax errors', () => {
    expect(() => parseCommandLine(`echo 'oops`)).toThrow(/unterminated/);
  });
});
