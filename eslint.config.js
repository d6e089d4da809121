// Lint rules: the recommended TypeScript set, plus the project's habits that a rule can
// hold: environment variables are read only in server/config.ts, and imports go one way
// between layers (eslint-layers.js).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerRules } from './eslint-layers.js';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['client/**', 'shared/**', 'server/**'],
    ignores: ['server/config.ts', 'server/launch/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in server/config.ts' },
      ],
    },
  },
  ...layerRules,
);
