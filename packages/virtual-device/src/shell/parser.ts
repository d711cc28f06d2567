/**
 * A POSIX-ish parser for the command lines `adb shell` hands to Android's /system/bin/sh:
 * quotes, backslashes, `$VAR`, `;` `&&` `||` `|` `&`, newlines, comments and redirections
 * (`<`, `>`, `>>`, `2>`, `2>&1`, `>&2`, `</dev/null`). No globbing, no `$(…)`.
 */

/** A piece of a word: literal text, or a variable reference expanded at run time. */
export type WordPart =
  { readonly kind: 'text'; readonly value: string } | { readonly kind: 'var'; readonly name: string };
export type Word = readonly WordPart[];

export interface Redirection {
  readonly fd: number;
  /** `>` truncate, `>>` append, `<` read, `>&` duplicate onto another fd. */
  readonly op: '>' | '>>' | '<' | '>&';
  readonly target: Word;
}

export interface SimpleCommand {
  readonly assignments: readonly { readonly name: string; readonly value: Word }[];
  readonly words: readonly Word[];
  readonly redirections: readonly Redirection[];
}

export type Pipeline = readonly SimpleCommand[];

export interface ListItem {
  /** How this pipeline joins the previous one (`;` for the first). */
  readonly connector: ';' | '&&' | '||';
  readonly pipeline: Pipeline;
}

export class ShellSyntaxError extends Error {}

type Token =
  | { readonly type: 'word'; readonly word: Word; readonly plainText: string | null }
  | { readonly type: 'op'; readonly op: ';' | '&&' | '||' | '|' | '&' }
  | { readonly type: 'redir'; readonly fd: number; readonly op: Redirection['op'] };

const VAR_START = /[A-Za-z_]/;
const VAR_CHAR = /[A-Za-z0-9_]/;

function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    const ch = line[i] ?? '';
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
      continue;
    }
    if (ch === '\n' || ch === ';') {
      tokens.push({ type: 'op', op: ';' });
      i++;
      continue;
    }
    if (ch === '#') {
      while (i < n && line[i] !== '\n') i++;
      continue;
    }
    if (ch === '&') {
      if (line[i + 1] === '&') {
        tokens.push({ type: 'op', op: '&&' });
        i += 2;
      } else if (line[i + 1] === '>') {
        // `&>file` is not mksh syntax; it is read as `>file` (stdout only).
        tokens.push({ type: 'redir', fd: 1, op: '>' });
        i += 2;
      } else {
        tokens.push({ type: 'op', op: '&' });
        i++;
      }
      continue;
    }
    if (ch === '|') {
      if (line[i + 1] === '|') {
        tokens.push({ type: 'op', op: '||' });
        i += 2;
      } else {
        tokens.push({ type: 'op', op: '|' });
        i++;
      }
      continue;
    }
    const redir = /^(\d?)(>>|>&|<|>)/.exec(line.slice(i, i + 3));
    if (redir && (redir[1] !== '' || ch === '<' || ch === '>')) {
      const fd = redir[1] !== '' ? Number(redir[1]) : redir[2] === '<' ? 0 : 1;
      tokens.push({ type: 'redir', fd, op: redir[2] as Redirection['op'] });
      i += redir[0].length;
      continue;
    }
    // A word: runs until an unquoted blank or operator.
    const parts: WordPart[] = [];
    let text = '';
    let plain = true;
    const flush = (): void => {
      if (text !== '') parts.push({ kind: 'text', value: text });
      text = '';
    };
    const readVar = (): void => {
      // At `$`.
      const next = line[i + 1] ?? '';
      if (next === '{') {
        const close = line.indexOf('}', i + 2);
        if (close < 0) throw new ShellSyntaxError("syntax error: bad substitution (missing '}')");
        flush();
        parts.push({ kind: 'var', name: line.slice(i + 2, close) });
        i = close + 1;
      } else if (next === '?' || next === '$' || next === '#' || /\d/.test(next)) {
        flush();
        parts.push({ kind: 'var', name: next });
        i += 2;
      } else if (VAR_START.test(next)) {
        let j = i + 1;
        while (j < n && VAR_CHAR.test(line[j] ?? '')) j++;
        flush();
        parts.push({ kind: 'var', name: line.slice(i + 1, j) });
        i = j;
      } else {
        text += '$';
        i++;
      }
      plain = false;
    };
    while (i < n) {
      const c = line[i] ?? '';
      if (
        c === ' ' ||
        c === '\t' ||
        c === '\n' ||
        c === '\r' ||
        c === ';' ||
        c === '&' ||
        c === '|' ||
        c === '<' ||
        c === '>'
      )
        break;
      if (c === "'") {
        const close = line.indexOf("'", i + 1);
        if (close < 0) throw new ShellSyntaxError('syntax error: unterminated quoted string');
        text += line.slice(i + 1, close);
        i = close + 1;
        plain = false;
        continue;
      }
      if (c === '"') {
        i++;
        plain = false;
        while (i < n && line[i] !== '"') {
          const d = line[i] ?? '';
          if (d === '\\' && i + 1 < n && '"\\$`\n'.includes(line[i + 1] ?? '')) {
            if (line[i + 1] !== '\n') text += line[i + 1];
            i += 2;
          } else if (d === '$') {
            readVar();
          } else {
            text += d;
            i++;
          }
        }
        if (i >= n) throw new ShellSyntaxError('syntax error: unterminated quoted string');
        i++;
        continue;
      }
      if (c === '\\') {
        if (i + 1 < n && line[i + 1] !== '\n') text += line[i + 1];
        i += 2;
        plain = false;
        continue;
      }
      if (c === '$') {
        readVar();
        continue;
      }
      text += c;
      i++;
    }
    flush();
    if (parts.length === 0) parts.push({ kind: 'text', value: '' });
    const only = parts[0];
    tokens.push({
      type: 'word',
      word: parts,
      plainText: plain && parts.length === 1 && only?.kind === 'text' ? only.value : null,
    });
  }
  return tokens;
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

export function parseCommandLine(line: string): ListItem[] {
  const tokens = tokenize(line);
  const items: ListItem[] = [];
  let connector: ListItem['connector'] = ';';
  let pipeline: SimpleCommand[] = [];
  let current: { assignments: { name: string; value: Word }[]; words: Word[]; redirections: Redirection[] } | null =
    null;

  const endCommand = (): void => {
    if (current) pipeline.push(current);
    current = null;
  };
  const endPipeline = (next: ListItem['connector'], opText: string): void => {
    endCommand();
    if (pipeline.length === 0) {
      if (opText === ';' && items.length === 0 && next === ';') return;
      if (opText === ';') return;
      throw new ShellSyntaxError(`syntax error: unexpected '${opText}'`);
    }
    items.push({ connector, pipeline });
    pipeline = [];
    connector = next;
  };

  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t];
    if (!token) continue;
    if (token.type === 'op') {
      if (token.op === '|') {
        if (!current) throw new ShellSyntaxError("syntax error: unexpected '|'");
        endCommand();
        continue;
      }
      const next = token.op === '&&' ? '&&' : token.op === '||' ? '||' : ';';
      endPipeline(next, token.op);
      continue;
    }
    current ??= { assignments: [], words: [], redirections: [] };
    if (token.type === 'redir') {
      const target = tokens[t + 1];
      if (!target || target.type !== 'word') throw new ShellSyntaxError('syntax error: redirection without a target');
      t++;
      current.redirections.push({ fd: token.fd, op: token.op, target: target.word });
      continue;
    }
    const assignment =
      current.words.length === 0 && token.word[0]?.kind === 'text' ? ASSIGNMENT.exec(token.word[0].value) : null;
    if (assignment && assignment[1] !== undefined) {
      const rest: WordPart[] = assignment[2] ? [{ kind: 'text', value: assignment[2] }] : [];
      current.assignments.push({ name: assignment[1], value: [...rest, ...token.word.slice(1)] });
      continue;
    }
    current.words.push(token.word);
  }
  endCommand();
  if (pipeline.length > 0) items.push({ connector, pipeline });
  else if (connector !== ';') throw new ShellSyntaxError(`syntax error: unexpected end of file after '${connector}'`);
  return items;
}

export function expandWord(word: Word, env: ReadonlyMap<string, string>): string {
  return word.map((p) => (p.kind === 'text' ? p.value : (env.get(p.name) ?? ''))).join('');
}
