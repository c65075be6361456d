import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['build/', 'data/', '.react-router/', 'node_modules/', 'test-results/', 'playwright-report/'] },
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
    files: ['app/**/*.{ts,tsx}'],
    ignores: [
      'app/lib/use-translation.ts',
      'app/lib/form.tsx',
      'app/lib/link.tsx',
      'app/lib/form.test.tsx',
      'app/lib/link.test.tsx',
    ],
    rules: {
      // The app's hook, Form and Link are much cheaper on the server (app/lib/use-translation.ts,
      // decisions 135 and 284 say why); Form and Link write the same HTML as React Router's.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-i18next',
              importNames: ['useTranslation'],
              message: "Import useTranslation from '~/lib/use-translation'.",
            },
            { name: 'react-router', importNames: ['Form'], message: "Import Form from '~/lib/form'." },
            { name: 'react-router', importNames: ['Link'], message: "Import Link from '~/lib/link'." },
          ],
        },
      ],
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
