import { fileURLToPath } from 'node:url'
import vue from '@vitejs/plugin-vue'
import Components from 'unplugin-vue-components/vite'
import { ElementPlusResolver } from 'unplugin-vue-components/resolvers'
import { defineConfig } from 'vite'
import { stripCatalogExamples } from './strip-examples.mjs'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// The renderer's build. electron.vite.config.ts reuses this object for its renderer section.
export default defineConfig({
  root: here('.'),
  base: './',
  resolve: {
    alias: {
      '@contract': here('../electron/contract'),
      '@': here('./src'),
    },
  },
  plugins: [
    // The catalog's examples (sandbox users, sample secrets) stay out of the bundle.
    stripCatalogExamples(),
    vue(),
    // Element Plus components (and their CSS) are imported where a template uses them.
    Components({
      resolvers: [ElementPlusResolver()],
      dirs: [],
      dts: false,
    }),
  ],
  build: {
    outDir: here('../out/renderer'),
    emptyOutDir: true,
    target: 'chrome120',
    // Said here because electron-vite's renderer section (the packaged app's build) turns Vite's
    // default minification off unless the config asks for it; both builds are then the same.
    minify: true,
    chunkSizeWarningLimit: 500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The charts' code (ECharts' bar chart, grid, tooltip and SVG renderer on echarts/core:
          // ~513 KB) comes as two chunks, ECharts and its renderer ZRender (a package of its
          // own), so no chunk passes 500 KB; both load only where a chart is drawn.
          groups: [{ name: 'zrender', test: /[\\/]node_modules[\\/]zrender[\\/]/ }],
        },
      },
    },
  },
  server: { host: '127.0.0.1' },
})
