// The folder boundaries in eslint.config.mjs, run through ESLint's own API on snippets placed at
// the paths they would live at: each crossing is reported and each permitted import is not, so a
// change of plugin, resolver or config cannot make the rule silently stop working.
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: root })
})

const IMPORT_RULES = ['no-restricted-imports', '@typescript-eslint/no-restricted-imports']
/** The rule that keeps the contract behind its alias outside electron/contract. */
const CONTRACT_BY_ALIAS = '@typescript-eslint/no-restricted-imports'

/** What ESLint reports for `code` as if it were the file at `filePath`, as rule id and message. */
async function messages(filePath: string, code: string) {
  const [result] = await eslint.lintText(`${code}\n`, { filePath })
  return result.messages
}

/**
 * What ESLint reports about imports for `code` as if it were the file at `filePath`: the rule ids
 * of boundaries and both no-restricted-imports, and any message without a rule (a resolver or
 * parse error), which would mean the check did not run.
 */
async function reported(filePath: string, code: string): Promise<string[]> {
  return (await messages(filePath, code))
    .filter(
      (m) => !m.ruleId || m.ruleId.startsWith('boundaries/') || IMPORT_RULES.includes(m.ruleId),
    )
    .map((m) => m.ruleId ?? `error: ${m.message}`)
}

const crossings: [string, string, string][] = [
  [
    'the core imports the sandbox',
    'electron/core/demo/x.ts',
    "import { startSandbox } from '../../../sandbox/server'",
  ],
  [
    'the core imports a sandbox type',
    'electron/core/x.ts',
    "import type { RunningSandbox } from '../../sandbox/server'",
  ],
  [
    'the core re-exports the sandbox',
    'electron/core/x.ts',
    "export { startSandbox } from '../../sandbox/server'",
  ],
  [
    'the core loads the sandbox lazily',
    'electron/core/x.ts',
    "export const load = () => import('../../sandbox/server')",
  ],
  [
    'the core imports main',
    'electron/core/x.ts',
    "import { startDemoService } from '../main/demo'",
  ],
  ['the core imports the preload', 'electron/core/x.ts', "import '../preload/index'"],
  [
    'the core imports the renderer by alias',
    'electron/core/x.ts',
    "import { request } from '@/bridge/bridge'",
  ],
  [
    'the contract imports the core',
    'electron/contract/x.ts',
    "import { createCore } from '../core/index'",
  ],
  [
    'the contract imports the sandbox',
    'electron/contract/catalog/x.ts',
    "import { startSandbox } from '../../../sandbox/server'",
  ],
  [
    'the renderer imports the core',
    'renderer/src/x.ts',
    "import { createCore } from '../../electron/core/index'",
  ],
  [
    'the renderer imports main',
    'renderer/src/views/x.ts',
    "import { startDemoService } from '../../../electron/main/demo'",
  ],
  [
    'the renderer imports the preload',
    'renderer/src/x.ts',
    "import '../../electron/preload/index'",
  ],
  [
    'the renderer imports the sandbox',
    'renderer/src/x.ts',
    "import { startSandbox } from '../../sandbox/server'",
  ],
  [
    'the sandbox imports the core',
    'sandbox/x.ts',
    "import { createCore } from '../electron/core/index'",
  ],
  [
    'the sandbox imports main',
    'sandbox/engine/x.ts',
    "import { startDemoService } from '../../electron/main/demo'",
  ],
  [
    'the sandbox imports the renderer',
    'sandbox/x.ts',
    "import { request } from '../renderer/src/bridge/bridge'",
  ],
  [
    'main imports the sandbox outside its demo entry',
    'electron/main/x.ts',
    "import { startSandbox } from '../../sandbox/server'",
  ],
  [
    'the preload imports the core',
    'electron/preload/x.ts',
    "import { createCore } from '../core/index'",
  ],
]

const permitted: [string, string, string][] = [
  [
    'the core imports the contract by alias',
    'electron/core/x.ts',
    "import { fail } from '@contract/errors'",
  ],
  [
    'the contract imports itself',
    'electron/contract/x.ts',
    "import { RELEASES } from './releases'",
  ],
  [
    'the contract’s catalog imports the rest of the contract by path',
    'electron/contract/catalog/x.ts',
    "import { fail } from '../errors'\nimport type { OperationDef } from './types'",
  ],
  [
    'tests import the contract by alias',
    'tests/integration/x.test.ts',
    "import type { AccountView } from '@contract/accounts'",
  ],
  [
    'the renderer imports the contract by alias',
    'renderer/src/x.ts',
    "import { fail } from '@contract/errors'",
  ],
  [
    'the renderer imports itself by alias',
    'renderer/src/stores/x.ts',
    "import { request } from '@/bridge/bridge'",
  ],
  ['the sandbox imports the contract', 'sandbox/x.ts', "import { fail } from '@contract/errors'"],
  ['main imports the core', 'electron/main/x.ts', "import { createCore } from '../core/index'"],
  [
    'main’s demo entry imports the sandbox',
    'electron/main/demo.ts',
    "import { startSandbox } from '../../sandbox/server'",
  ],
  [
    'browser mode’s entry imports the sandbox',
    'scripts/browser-cli.ts',
    "import { startSandbox } from '../sandbox/server'",
  ],
  [
    'tests import the core and the sandbox',
    'tests/integration/x.test.ts',
    "import { createCore } from '../../electron/core/index'\nimport { startSandbox } from '../../sandbox/server'",
  ],
  ['bench imports the sandbox', 'bench/x.ts', "import { startSandbox } from '../sandbox/server'"],
]

/** Who imports the contract by a path into electron/contract instead of @contract/…, and how. */
const contractByPath: [string, string, string][] = [
  ['the sandbox', 'sandbox/engine/x.ts', "import { fail } from '../../electron/contract/errors'"],
  [
    'a sandbox type',
    'sandbox/x.ts',
    "import type { OperationDef } from '../electron/contract/catalog/types'",
  ],
  [
    'a test',
    'tests/integration/x.test.ts',
    "import type { AccountView } from '../../electron/contract/accounts'",
  ],
  [
    'a test re-export',
    'tests/support/x.ts',
    "export type { Release } from '../../electron/contract/releases'",
  ],
  ['a script', 'scripts/x.ts', "import { RELEASES } from '../electron/contract/releases'"],
  ['the bench', 'bench/x.ts', "import { operations } from '../electron/contract/catalog/index'"],
  ['the core', 'electron/core/accounts/x.ts', "import { fail } from '../../contract/errors'"],
  ['the preload', 'electron/preload/x.ts', "import type { AppInfo } from '../contract/channels'"],
  ['main', 'electron/main/x.ts', "import { EVENT_NAMES } from '../contract/channel-names'"],
  ['a root config file', 'x.config.mts', "import { RELEASES } from './electron/contract/releases'"],
]

describe('folder boundaries in lint', () => {
  it.each(crossings)('reports it when %s', async (_name, filePath, code) => {
    expect(await reported(filePath, code)).toContain('boundaries/dependencies')
  })

  it('reports it when the renderer reaches the contract by path instead of @contract', async () => {
    const code = "import { fail } from '../../electron/contract/errors'"
    expect(await reported('renderer/src/x.ts', code)).toEqual(['no-restricted-imports'])
  })

  it.each(contractByPath)(
    'reports it when %s imports the contract by path instead of @contract',
    async (_name, filePath, code) => {
      const found = (await messages(filePath, code)).filter((m) => m.ruleId === CONTRACT_BY_ALIAS)
      expect(found).toHaveLength(1)
      expect(found[0].message).toContain('Import the contract as @contract/…')
    },
  )

  it.each(permitted)('allows it when %s', async (_name, filePath, code) => {
    expect(await reported(filePath, code)).toEqual([])
  })

  it('keeps the package rules: electron only in main and preload, axios only in core/http', async () => {
    expect(await reported('electron/core/x.ts', "import { app } from 'electron'")).toEqual([
      'no-restricted-imports',
    ])
    expect(await reported('electron/core/accounts/x.ts', "import axios from 'axios'")).toEqual([
      'no-restricted-imports',
    ])
    expect(await reported('electron/core/http/x.ts', "import axios from 'axios'")).toEqual([])
  })

  it('keeps views and components off the bridge: they use the data layer and stores', async () => {
    const bridge = "import { callApi } from '@/bridge/bridge'"
    expect(await reported('renderer/src/views/targets/x.ts', bridge)).toEqual([
      'no-restricted-imports',
    ])
    expect(await reported('renderer/src/components/kit/X.ts', bridge)).toEqual([
      'no-restricted-imports',
    ])
    expect(await reported('renderer/src/data/x.ts', bridge)).toEqual([])
    expect(await reported('renderer/src/stores/x.ts', bridge)).toEqual([])
  })

  it('has one source of the window’s account outside the account stores', async () => {
    const code = 'export const id = (accounts: { activeId: string }) => accounts.activeId'
    const [view] = await eslint.lintText(`${code}\n`, { filePath: 'renderer/src/views/x.ts' })
    expect(view.messages.map((m) => m.ruleId)).toContain('no-restricted-syntax')
    const [store] = await eslint.lintText(`${code}\n`, { filePath: 'renderer/src/stores/app.ts' })
    expect(store.messages.map((m) => m.ruleId)).not.toContain('no-restricted-syntax')
  })
})

/** Imports that run from a lower layer of the renderer up to a higher one (docs/architecture.md). */
const upward: [string, string, string][] = [
  ['a data file imports a store', 'renderer/src/data/x.ts', "import { a } from '@/stores/library'"],
  ['a store of the session imports data', 'renderer/src/stores/app.ts', "import '@/data/envelope'"],
  ['a store imports a composable', 'renderer/src/stores/x.ts', "import '@/composables/clock'"],
  ['the registry imports a store', 'renderer/src/resources/x.ts', "import '@/stores/confirm'"],
  ['utils import the bridge', 'renderer/src/utils/x.ts', "import '@/bridge/bridge'"],
  [
    'a composable imports a view’s module by a relative path',
    'renderer/src/composables/x.ts',
    "import '../views/saq/saqFillerTestKit'",
  ],
  [
    'the kit imports another component by a relative path',
    'renderer/src/components/kit/x.ts',
    "import { paint } from '../charts/theme'",
  ],
  ['a component imports the screens', 'renderer/src/components/x.ts', "import '@/screens'"],
  [
    'the registry imports a view (not lazily)',
    'renderer/src/resources/x.ts',
    "import View from '@/views/reports/ReportsView.vue'",
  ],
  ['a view imports the router', 'renderer/src/views/x.ts', "import '@/router'"],
]

/** Imports along the layers, and the exceptions the layering names. */
const alongLayers: [string, string, string][] = [
  ['a data file reads the session', 'renderer/src/data/x.ts', "import '@/stores/app'"],
  ['the session’s stores import each other', 'renderer/src/stores/app.ts', "import './accounts'"],
  ['a store reads data', 'renderer/src/stores/x.ts', "import '@/data/envelope'"],
  ['the kit reads the registry', 'renderer/src/components/kit/x.ts', "import '@/resources'"],
  [
    'the registry names a screen lazily',
    'renderer/src/resources/x.ts',
    "export const list = () => import('@/views/reports/ReportsView.vue')",
  ],
  [
    'the router’s first read reads the registry and a composable',
    'renderer/src/data/firstReads.ts',
    "import '@/resources'\nimport '@/composables/tabInAddress'",
  ],
  ['the sidebar reads the groups', 'renderer/src/components/x.ts', "import '@/navigation'"],
  ['a view imports the kit', 'renderer/src/views/x.ts', "import '@/components/kit/ReadError.vue'"],
  ['the router imports a view', 'renderer/src/router.ts', "import '@/views/user/routes'"],
  [
    'a test mounts a view',
    'renderer/src/data/x.test.ts',
    "import '@/views/reports/ReportsView.vue'",
  ],
]

describe('the renderer’s layers in lint', () => {
  it.each(upward)('reports it when %s', async (_name, filePath, code) => {
    const found = (await messages(filePath, code)).filter(
      (m) => m.ruleId === 'boundaries/dependencies',
    )
    expect(found).toHaveLength(1)
    expect(found[0].message).toContain('may not import a layer above it')
  })

  it.each(alongLayers)('allows it when %s', async (_name, filePath, code) => {
    expect(await reported(filePath, code)).toEqual([])
  })
})
