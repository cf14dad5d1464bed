// Resolves imports for eslint-plugin-boundaries the way the builds do: the `@contract/…` alias
// (every tsconfig, vitest, electron-vite, tsx) and the renderer's `@/…`, then Node resolution
// with the TypeScript and Vue extensions. An unresolved import would be taken for a package and
// escape the folder boundaries, so the aliases must resolve here exactly as they do in builds.
const path = require('node:path')
const node = require('eslint-import-resolver-node')

const root = path.resolve(__dirname, '..')
const ALIASES = [
  ['@contract/', 'electron/contract/'],
  ['@/', 'renderer/src/'],
]
const EXTENSIONS = ['.ts', '.mts', '.cts', '.d.ts', '.vue', '.js', '.mjs', '.cjs', '.json']

exports.interfaceVersion = 2

exports.resolve = function resolve(source, file, config) {
  let target = source
  for (const [prefix, folder] of ALIASES) {
    if (source.startsWith(prefix)) {
      target = path.join(root, folder, source.slice(prefix.length))
      break
    }
  }
  return node.resolve(target, file, { extensions: EXTENSIONS, ...config })
}
