/**
 * The resource_id_matches dialect (idPattern.ts) to the word and to the compiled source: each refusal
 * names what is wrong and where, and each accepted pattern compiles to the JS source with Java's
 * semantics. handWrittenSelectors.test.ts checks the dialect's shape loosely; a mutation run showed a
 * refusal could lose its position or its reason, and an escape its backslash, with no test failing.
 */
import { describe, expect, it } from 'vitest';
import { compileIdPattern, idPatternProblem } from '../../../src/domain/selectors/idPattern.js';

const outside = (reason: string): string => `is outside the supported pattern dialect: ${reason}`;

describe('resource_id_matches: each refusal, word for word', () => {
  it.each([
    // A quantifier with nothing before it, counted from 1 and past a leading '^'.
    ['*a', "'*' at position 1 has nothing to repeat"],
    ['^*a', "'*' at position 2 has nothing to repeat"],
    ['a**', "'*' at position 3 follows another quantifier (no nested, lazy or possessive quantifiers)"],
    ['^a+*', "'*' at position 4 follows another quantifier (no nested, lazy or possessive quantifiers)"],
    ['a^b', "'^' is only allowed as the first ('^') or last ('$') character"],
    ['a$b$', "'$' is only allowed as the first ('^') or last ('$') character"],
    // Each parenthesis and brace on its own: either one alone is refused.
    ['a(b', 'groups are not supported (no parentheses: no alternation, backreference or lookaround)'],
    ['a)', 'groups are not supported (no parentheses: no alternation, backreference or lookaround)'],
    ['a{2', "counted repetition '{n,m}' is not supported; use '*', '+' or '?'"],
    ['a}', "counted repetition '{n,m}' is not supported; use '*', '+' or '?'"],
    ['ab]', "']' at position 3 closes no class"],
    // Inside a class: each refused character, as a member and as the end of a range.
    ['[[]', "'[' inside a character class is not supported"],
    ['[&]', "'&' inside a character class is not supported"],
    ['[\\d]', "'\\' inside a character class is not supported"],
    ['["]', "'\"' inside a character class is not supported"],
    ['[a^]', "'^' inside a class is only allowed first (negation)"],
    ['[a-[]', "'[' inside a character class is not supported"],
    ['[a-&]', "'&' inside a character class is not supported"],
    ['[a-\\]', "'\\' inside a character class is not supported"],
    ['[a-"]', "'\"' inside a character class is not supported"],
    ['[a-^]', "'^' inside a character class is not supported"],
    ['[b-a]', "the range 'b-a' runs backwards"],
    // The final '$' is the anchor, not a range's end: the class is left open.
    ['[a-$', "a character class '[' is not closed"],
    ['[]', 'a character class is empty'],
    ['a?b?c?d?e?f?g?', 'it has 7 quantifiers (at most 6)'],
    ['a*b+c*', "it has 3 '*' or '+' (at most 2)"],
  ])('%j', (pattern, reason) => {
    expect(idPatternProblem(pattern)).toBe(outside(reason));
  });

  it('the bounds are inclusive: 128 code points and 6 quantifiers are accepted, one more is not', () => {
    expect(idPatternProblem('x'.repeat(128))).toBeNull();
    expect(idPatternProblem('x'.repeat(129))).toBe('is 129 characters long (at most 128)');
    expect(idPatternProblem('a?b?c?d?e?f?')).toBeNull();
    expect(idPatternProblem('a*b+')).toBeNull();
    // A range from a character to itself is not backwards.
    expect(idPatternProblem('[a-a]')).toBeNull();
  });
});

describe('resource_id_matches: what an accepted pattern compiles to', () => {
  it.each([
    // An escaped metacharacter keeps its backslash; an escaped final '$' is a literal, not the anchor.
    ['a\\.b', '^(?:a\\.b)$'],
    ['a\\$', '^(?:a\\$)$'],
    ['^a$', '^(?:a)$'],
    ['a\\d\\W', '^(?:a\\d\\W)$'],
    ['a\\-b', '^(?:a-b)$'],
    // Class members are escaped for a `u` RegExp where they would mean something else there.
    ['[ab]', '^(?:[ab])$'],
    ['[a-z0-9]', '^(?:[a-z0-9])$'],
    ['x[a-]y', '^(?:x[a\\-]y)$'],
    ['[^-]', '^(?:[^\\-])$'],
    ['[a-b-c]', '^(?:[a-b\\-c])$'],
  ])('%j → %s', (pattern, source) => {
    expect(idPatternProblem(pattern)).toBeNull();
    expect(compileIdPattern(pattern).source).toBe(source);
  });
});
