import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'build/',
      'build-report/',
      'data/',
      '.react-router/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-empty-pattern': 'off',
    },
  },
  {
    // Product code stays small enough to read: no file over 400 lines, no function over 80 (blank lines
    // and comments aside). Data, migrations and tests are exempt.
    files: ['app/**/*.{ts,tsx}', 'server/**/*.{ts,js}'],
    ignores: ['**/*.test.{ts,tsx}', 'server/db/migrations/**', 'server/db/seed-data/**'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
)
