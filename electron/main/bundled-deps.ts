// Production dependencies bundled into main instead of loaded from node_modules at run time
// (electron.vite.config.ts; the start-up benchmark bundles its child the same way). zod: main
// needs it before its first answer (every IPC payload is checked with it), and its ESM build,
// tree-shaken into the bundle, costs about 15 ms of CPU to load where its 95 CommonJS files
// cost about 65 ms.
export const MAIN_BUNDLED_DEPS: readonly string[] = ['zod']
