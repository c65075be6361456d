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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-empty-pattern': 'off',
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/lib/use-translation.ts'],
    rules: {
      // The app's hook is much cheaper on the server (app/lib/use-translation.ts says why).
      'no-restricted-imports': ['error', { paths: [{ name: 'react-i18next', importNames: ['useTranslation'], message: "Import useTranslation from '~/lib/use-translation'." }] }],
    },
  },
)
