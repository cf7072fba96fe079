// ESLint for src/: typescript-eslint's type-checked recommendations, plus the repository's own
// rules (no locale-dependent text handling, non-null assertions only with a reason, every
// disable comment with its reason).
import comments from '@eslint-community/eslint-plugin-eslint-comments';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.cache/', 'oracle/', 'reports/', '.stryker-tmp/'] },
  {
    files: ['src/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@eslint-community/eslint-comments': comments },
    rules: {
      // A disable comment says why after ` -- `; the enable that closes a block needs none.
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: ['eslint-enable'] }],
      // Output must not depend on the machine's locale: compare with core/json.ts compareText.
      'no-restricted-properties': [
        'error',
        { property: 'localeCompare', message: 'Locale-dependent; use compareText (core/json.ts).' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Intl', message: 'Locale-dependent; output must be the same on every machine.' },
      ],
      // tsc's noUnusedLocals/noUnusedParameters convention: a leading underscore marks a deliberate unused name.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Rethrowing a caught error (`.catch((e) => ... Promise.reject(e))`) passes it on unchanged.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `let [a, b]` where only one is reassigned cannot be split without a second statement.
      'prefer-const': ['error', { destructuring: 'all' }],
      // A non-null assertion states an invariant the types do not show: only with a comment saying why.
      '@typescript-eslint/no-non-null-assertion': 'error',
    },
  },
);
