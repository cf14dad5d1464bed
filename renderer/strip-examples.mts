import ts from 'typescript'
import type { Plugin } from 'vite'

const CATALOG = /[\\/]electron[\\/]contract[\\/]catalog[\\/][^\\/]+\.ts$/

/**
 * Source of a catalog file without the `example` of each `defineOperation({...})`: examples are
 * the sandbox's sample requests (its demo users' password, sample secrets, one-time tokens) for
 * docs and tests; the renderer never reads them and must not ship them.
 */
export function withoutExamples(code: string, fileName = 'catalog.ts'): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true)
  const cuts: [number, number][] = []
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'defineOperation' &&
      node.arguments[0] &&
      ts.isObjectLiteralExpression(node.arguments[0])
    ) {
      const props = node.arguments[0].properties
      props.forEach((prop, i) => {
        if (!prop.name || !ts.isIdentifier(prop.name) || prop.name.text !== 'example') return
        // Up to the next property (its comma included), or past the last one's trailing comma.
        let end = i + 1 < props.length ? props[i + 1].getStart(source) : prop.end
        if (i + 1 === props.length) {
          const rest = /^\s*,/.exec(code.slice(end))
          if (rest) end += rest[0].length
        }
        cuts.push([prop.getStart(source), end])
      })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  let out = code
  for (const [start, end] of cuts.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, start) + out.slice(end)
  return out
}

/** The Vite plugin: applies `withoutExamples` to the catalog's files. */
export function stripCatalogExamples(): Plugin {
  return {
    name: 'scandesk-strip-catalog-examples',
    enforce: 'pre',
    transform(code, id) {
      if (!CATALOG.test(id.split('?')[0])) return null
      return { code: withoutExamples(code, id), map: null }
    },
  }
}
