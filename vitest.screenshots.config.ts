// `npm run screenshots`: every screen in both themes at desktop and phone width, saved to
// test-results/screenshots for people to look at. Each shot waits for its screen's data,
// but what they check is checked by the e2e tests, so `npm test` leaves them out (they
// took about four minutes of CI's budget).
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

export default mergeConfig(base, defineConfig({ test: { include: ['tests/e2e/*.shots.ts'] } }));
