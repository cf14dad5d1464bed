import { fileURLToPath } from 'node:url'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vitest/config'

const alias = {
  '@contract': fileURLToPath(new URL('./electron/contract', import.meta.url)),
  '@': fileURLToPath(new URL('./renderer/src', import.meta.url)),
}

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'node',
          environment: 'node',
          sequence: { groupOrder: 0 },
          include: [
            'electron/**/*.test.ts',
            'sandbox/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tests/integration/**/*.test.ts',
            'tests/keychain/**/*.test.ts',
            'tests/ui/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [vue()],
        resolve: { alias },
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          sequence: { groupOrder: 0 },
          include: ['renderer/src/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          environment: 'node',
          // after the unit and integration projects, so the journeys do not compete for 2 cores
          sequence: { groupOrder: 1 },
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          fileParallelism: false,
          // One worker for all the journeys, kept between files: its Chromium (harness.ts,
          // sharedChromium) and the modules the journeys import are loaded once, not per file.
          // Journeys still share nothing else: each starts its own browser mode and sandbox and
          // works in browser contexts of its own.
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
