// ESLint flat config. Syntax-only rules (no type information), so a run stays a few seconds on two
// cores; `tsc` already checks the types. Layout is Prettier's job (.prettierrc.json), the layers are
// dependency-cruiser's (.dependency-cruiser.cjs): this file keeps only what neither of them sees.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores([
    'node_modules/',
    'dist/',
    'packages/*/dist/',
    'artifacts/',
    'coverage/',
    'bench/results/',
    '.appium-logs/',
    '.stryker-tmp/',
    'reports/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      // The sources run on Node only: the trace viewer's page script lives in a template string, not a file.
      globals: globals.node,
    },
    plugins: { '@stylistic': stylistic },
    rules: {
      // The house names what it drops on purpose with a leading underscore (a port's argument an adapter ignores,
      // a field left out of a copy by destructuring): those are kept, anything else unused is dead code.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Prettier wraps code at 120; this catches what it cannot wrap: comments and long expressions. A
      // user-facing message stays one string (one grep finds it), so strings, templates, URLs and regexes are exempt.
      '@stylistic/max-len': [
        'error',
        {
          code: 140,
          comments: 140,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
        },
      ],
    },
  },
  {
    // Stdout belongs to MCP: the server and the tests write to stderr. A CLI's intended stdout line calls
    // process.stdout.write and is marked `// stdout-ok`; bench and scripts are CLIs that print their reports.
    files: ['src/**', 'test/**'],
    rules: { 'no-console': ['error', { allow: ['error', 'warn'] }] },
  },
);
