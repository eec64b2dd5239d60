import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'public/vendor',
      'public/models',
      'models/**',
      'coverage',
      'test-results',
      '.cache',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Core is pure: it runs in Node and in the worker. Runtime folders depend on it, never the reverse.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', '**/worker/**', '**/storage/**', '**/models/**', '**/cli/**', '**/node/**'],
              message: 'src/core must not depend on runtime folders.',
            },
            { group: ['node:*', 'fs', 'path', 'idb', 'react', 'react-dom'], message: 'src/core is runtime-neutral.' },
          ],
        },
      ],
    },
  },
  {
    files: [
      'src/cli/**/*.ts',
      'src/node/**/*.ts',
      'scripts/**/*.ts',
      'test/**/*.ts',
      '**/*.test.ts',
      '*.config.ts',
      '*.config.js',
    ],
    languageOptions: { globals: globals.node },
  },
);
