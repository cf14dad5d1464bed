import { fileURLToPath } from 'node:url'
import { defineConfig, type UserConfig } from 'electron-vite'
import { loadConfigFromFile } from 'vite'
import { MAIN_BUNDLED_DEPS } from './electron/main/bundled-deps'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const alias = { '@contract': here('./electron/contract') }

// Main and preload are CommonJS: a sandboxed preload cannot load ES modules, and package.json
// has no "type": "module". The renderer section is renderer/vite.config.mts itself (loaded
// through Vite so the renderer's plugins and aliases are defined in one place only).
export default defineConfig(async (env): Promise<UserConfig> => {
  const loaded = await loadConfigFromFile(
    { command: env.command, mode: env.mode },
    here('./renderer/vite.config.mts'),
    undefined,
    'silent',
  )
  if (!loaded) throw new Error('renderer/vite.config.mts is missing')
  const renderer = loaded.config
  return {
    main: {
      resolve: { alias },
      build: {
        outDir: here('./out/main'),
        // Dependencies (better-sqlite3, keytar, axios, papaparse) load from node_modules at run
        // time; the native ones are unpacked from the asar (build/electron-builder.yml). zod is
        // bundled in (MAIN_BUNDLED_DEPS: it loads faster so, before the first answer).
        externalizeDeps: { include: ['better-sqlite3', 'keytar'], exclude: [...MAIN_BUNDLED_DEPS] },
        rolldownOptions: {
          input: { index: here('./electron/main/index.ts') },
          output: { format: 'cjs', entryFileNames: '[name].js' },
        },
      },
    },
    preload: {
      resolve: { alias },
      build: {
        outDir: here('./out/preload'),
        // A sandboxed preload can require only 'electron': everything else is bundled in.
        externalizeDeps: false,
        rolldownOptions: {
          input: { index: here('./electron/preload/index.ts') },
          output: { format: 'cjs', entryFileNames: '[name].js' },
        },
      },
    },
    renderer: {
      ...renderer,
      build: {
        ...renderer.build,
        rolldownOptions: {
          ...renderer.build?.rolldownOptions,
          input: { index: here('./renderer/index.html') },
        },
      },
    },
  }
})
