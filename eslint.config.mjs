import { fileURLToPath } from 'node:url'
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import boundaries from 'eslint-plugin-boundaries'
import vue from 'eslint-plugin-vue'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'child_process',
  'http',
  'https',
  'net',
  'crypto',
  'stream',
]

// Boundaries of STYLE.md habit 2, enforced here rather than remembered.
const noElectron = {
  name: 'electron',
  message: "Only electron/main and electron/preload import 'electron'.",
}
const noKeytar = { name: 'keytar', message: 'Only the keychain vault imports keytar.' }
const noAxios = { name: 'axios', message: 'Only electron/core/http imports axios.' }
const noAxiosRetry = {
  name: 'axios-retry',
  message: 'Only electron/core/http imports axios-retry.',
}

// Folder boundaries (eslint-plugin-boundaries): which of our folders each folder may import.
// Imports resolve as in the builds (scripts/eslint-import-resolver.cjs: @contract/…, @/…, .ts,
// .vue), so an alias cannot hide a crossing. scripts/lint-boundaries.test.ts keeps this honest.
const LAYERS = {
  contract: 'electron/contract',
  core: 'electron/core',
  main: 'electron/main',
  preload: 'electron/preload',
  renderer: 'renderer',
  sandbox: 'sandbox',
  tooling: ['tests', 'bench', 'scripts'],
}
/** What each folder may import of ours besides itself; tooling (tests, bench, scripts) any. */
const MAY_IMPORT = {
  contract: [],
  core: ['contract'],
  main: ['core', 'contract'],
  preload: ['contract'],
  renderer: ['contract'],
  sandbox: ['contract'],
}
// A folder's type, and the renderer's layers below (each a type of its own: 'renderer-data', …).
const typesOf = (folder) => (folder === 'renderer' ? 'renderer*' : folder)
const folderPolicies = [
  ...Object.entries(MAY_IMPORT).map(([from, allowed]) => {
    const others = Object.keys(LAYERS).filter((t) => t !== from && !allowed.includes(t))
    const may = allowed.length ? `only ${allowed.join(' and ')}` : 'nothing of ours outside itself'
    return {
      from: { element: { type: typesOf(from) } },
      disallow: { to: { element: { types: others.map(typesOf) } } },
      message: `${LAYERS[from]} may import ${may} ({{ to.element.type }} is out of bounds; docs/architecture.md).`,
    }
  }),
  // The entry point of Electron decides that this build carries the demo service (the sandbox).
  {
    from: { element: { type: 'main', fileInternalPath: 'demo.ts' } },
    allow: { to: { element: { type: 'sandbox' } } },
  },
]

// The renderer's layers, lowest first (docs/architecture.md, "The renderer's layers"): a file may
// import its own layer and those below, never one above. Folders are the layers but for a few
// files whose place is another layer's: the stores of the window's session (which account, its
// release) sit under the data layer, which reads them; the sidebar's groups sit with the registry;
// the router's first read of a list sits with the router.
const RENDERER_FOLDERS = {
  'renderer-utils': 'renderer/src/utils',
  'renderer-bridge': 'renderer/src/bridge',
  'renderer-data': 'renderer/src/data',
  'renderer-resources': 'renderer/src/resources',
  'renderer-stores': 'renderer/src/stores',
  'renderer-composables': 'renderer/src/composables',
  'renderer-kit': 'renderer/src/components/kit',
  'renderer-components': 'renderer/src/components',
  'renderer-views': ['renderer/src/views', 'renderer/src/layouts'],
  // main.ts, App.vue, router.ts, screens.ts, navigation.ts (and test/, styles/: no layer)
  'renderer-root': 'renderer/src',
}
const SESSION_STORES = '{app,accounts,scope,trust}.ts'
const TOP_FILES = '{main.ts,App.vue,router.ts,screens.ts}'
const rendererLayers = [
  ['utils', [{ type: 'renderer-utils' }]],
  ['bridge', [{ type: 'renderer-bridge' }]],
  ['the session stores', [{ type: 'renderer-stores', fileInternalPath: SESSION_STORES }]],
  ['data', [{ type: 'renderer-data' }]],
  [
    'the registry',
    [{ type: 'renderer-resources' }, { type: 'renderer-root', fileInternalPath: 'navigation.ts' }],
  ],
  ['stores', [{ type: 'renderer-stores' }]],
  ['composables', [{ type: 'renderer-composables' }]],
  ['the kit', [{ type: 'renderer-kit' }]],
  ['components', [{ type: 'renderer-components' }]],
  ['views', [{ type: 'renderer-views' }]],
  [
    'the router and the app',
    [
      { type: 'renderer-root', fileInternalPath: TOP_FILES },
      { type: 'renderer-data', fileInternalPath: 'firstReads.ts' },
    ],
  ],
]
const element = (selectors) => selectors.map((s) => ({ element: s }))
const layerPolicy = ([name, selectors], i) => {
  const above = rendererLayers.slice(i + 1).flatMap(([, layer]) => layer)
  const below = rendererLayers.slice(0, i + 1).flatMap(([, layer]) => layer)
  return [
    ...(above.length
      ? [
          {
            from: element(selectors),
            disallow: { to: element(above) },
            message: `${name} may not import a layer above it ({{ to.element.type }}; docs/architecture.md, "The renderer's layers").`,
          },
        ]
      : []),
    { from: element(selectors), allow: { to: element(below) } },
  ]
}
// The last policy that matches decides: a layer cut out of a folder (the session's stores, the
// router's first read) comes after its folder's.
const CUT_OUT = new Set(['the session stores', 'the router and the app'])
const layerPolicies = [
  ...rendererLayers.flatMap((layer, i) => (CUT_OUT.has(layer[0]) ? [] : layerPolicy(layer, i))),
  ...rendererLayers.flatMap((layer, i) => (CUT_OUT.has(layer[0]) ? layerPolicy(layer, i) : [])),
  // The registry names the screens that show a resource by a lazy loader (`() => import(…)`):
  // nothing loads until the screen opens, as with the router's routes.
  {
    from: element(rendererLayers[4][1]),
    allow: {
      to: element([{ type: 'renderer-components' }, { type: 'renderer-views' }]),
      dependency: { nodeKind: 'dynamic-import' },
    },
  },
]

// What no renderer file imports: Node, main-process packages, or the contract by a relative path.
const rendererImports = {
  paths: [noElectron, noKeytar, noAxios, 'better-sqlite3', ...nodeBuiltins],
  patterns: [
    { group: ['node:*'], message: 'The renderer has no Node.' },
    {
      regex: '(^|/)electron/',
      message: 'The renderer imports the contract through @contract/… only.',
    },
  ],
}

// The contract is imported as @contract/… everywhere outside itself (every tsconfig, vitest,
// electron-vite and tsx resolve the alias), never by a relative path into electron/contract.
// A separate rule id from no-restricted-imports on purpose: the blocks below replace that rule's
// options per folder, and none of them can drop this one by doing so.
const contractByAlias = {
  // files of the contract import each other relatively; the renderer's own rule already forbids
  // any electron/ path there
  ignores: ['electron/contract/**', 'renderer/src/**'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(\\.{1,2}/(.*/)?|(.*/)?electron/)contract(/|$)',
            message: 'Import the contract as @contract/… (not by a path into electron/contract).',
          },
        ],
      },
    ],
  },
}

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'out/**', 'dist/**', 'release/**', 'docs/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    // CommonJS on purpose (an ESLint import resolver is loaded with require)
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': fileURLToPath(new URL('.', import.meta.url)),
      'boundaries/elements': [...Object.entries(RENDERER_FOLDERS), ...Object.entries(LAYERS)].map(
        ([type, pattern]) => ({ type, pattern, partialMatch: false }),
      ),
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import', 'require'],
      'import/resolver': {
        [fileURLToPath(new URL('./scripts/eslint-import-resolver.cjs', import.meta.url))]: {},
      },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        { default: 'allow', policies: [...folderPolicies, ...layerPolicies] },
      ],
    },
  },
  {
    // Tests mount and fake across layers; only the folder boundaries hold for them.
    files: ['renderer/**/*.test.ts', 'renderer/src/test/**', 'renderer/src/**/*TestKit.ts'],
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: folderPolicies }],
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'vue/no-v-html': 'error',
      'vue/multi-word-component-names': 'error',
    },
  },
  {
    files: [
      'electron/core/**',
      'electron/contract/**',
      'sandbox/**',
      'bench/**',
      'scripts/**',
      'tests/**',
    ],
    ignores: [
      'electron/core/http/**',
      'electron/core/accounts/keychain-vault.ts',
      'tests/**',
      'bench/**',
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron, noKeytar, noAxios, noAxiosRetry] }],
    },
  },
  {
    files: ['electron/core/http/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noKeytar] }] },
  },
  {
    files: ['electron/core/accounts/keychain-vault.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noAxios, noAxiosRetry] }] },
  },
  {
    files: ['tests/**', 'bench/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noKeytar] }] },
  },
  {
    files: ['electron/contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, noKeytar, noAxios, 'vue', 'pinia', ...nodeBuiltins],
          patterns: [{ group: ['node:*'], message: 'The contract imports nothing from node.' }],
        },
      ],
    },
  },
  {
    files: ['electron/main/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noKeytar,
            noAxios,
            {
              name: 'electron',
              importNames: ['ipcRenderer'],
              message: 'ipcRenderer belongs to the preload.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/main/**'],
    ignores: ['electron/main/ipc.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noKeytar,
            noAxios,
            {
              name: 'electron',
              importNames: ['ipcMain', 'ipcRenderer'],
              message: 'Only electron/main/ipc.ts uses ipcMain.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noKeytar, noAxios, { name: 'electron', importNames: ['ipcMain'] }] },
      ],
    },
  },
  {
    files: ['renderer/**'],
    ignores: ['renderer/vite.config.mts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', rendererImports],
    },
  },
  {
    // Views and components ask the data layer's composables and the stores; they never talk to
    // main themselves (STYLE.md habit 8).
    files: ['renderer/src/components/**', 'renderer/src/views/**', 'renderer/src/layouts/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: rendererImports.paths,
          patterns: [
            ...rendererImports.patterns,
            {
              group: ['@/bridge', '@/bridge/*'],
              message:
                'Views and components use the data layer (@/data) and stores, not the bridge.',
            },
          ],
        },
      ],
    },
  },
  {
    // One source of the window's account: useAppStore().accountId (pin-aware).
    files: ['renderer/src/**'],
    ignores: [
      'renderer/src/stores/accounts.ts',
      'renderer/src/stores/app.ts',
      '**/*.test.ts',
      'renderer/src/test/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='activeId']",
          message: "Read the window's account from useAppStore().accountId, not accounts.activeId.",
        },
      ],
    },
  },
  {
    files: ['renderer/**'],
    // test doubles install a fake window.scandesk; the app itself reads it only in the bridge
    ignores: ['renderer/src/bridge/**', 'renderer/src/test/**', 'renderer/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'window',
          property: 'scandesk',
          message: 'Only renderer/src/bridge reads window.scandesk.',
        },
      ],
    },
  },
  contractByAlias,
  prettier,
)
