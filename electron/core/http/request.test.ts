import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { defineOperation } from '@contract/catalog/types'
import { AppFailure } from '@contract/errors'
import { prepareRequest, unsafePathValue } from './request'

// A loose path parameter schema, as a catalog entry might have: the builder must still refuse.
const loose = defineOperation({
  id: 'billing.test_plan',
  group: 'billing',
  method: 'GET',
  path: '/v2/billing/products/{product_code}/plans/{id}',
  pathParams: z.strictObject({ product_code: z.string(), id: z.string() }),
  response: z.looseObject({}),
  releases: ['latest'],
  summary: 'test',
  source: 'decided',
  sandbox: { kind: 'custom' },
})

function fieldErrors(fn: () => unknown) {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(AppFailure)
    return (err as AppFailure).error.fieldErrors
  }
  throw new Error('expected VALIDATION')
}

describe('building the request path', () => {
  it('encodes each parameter into its placeholder', () => {
    const r = prepareRequest(loose, { path: { product_code: 'pci scan', id: 'pln-1' } })
    expect(r.url).toBe('/v2/billing/products/pci%20scan/plans/pln-1')
  })

  it.each([
    ['https://evil.example', 'must not be an absolute URL'],
    ['//evil.example', 'must not be an absolute URL'],
    ['..', 'must not contain ".."'],
    ['a/../b', 'must not contain ".."'],
    ['a\\b', 'must not contain "/" or "\\"'],
    ['', 'must not be empty'],
  ])('refuses %j even when the schema allows it', (value, message) => {
    expect(unsafePathValue(value)).toBe(message)
    expect(
      fieldErrors(() => prepareRequest(loose, { path: { product_code: value, id: 'x' } })),
    ).toEqual({
      product_code: [message],
    })
  })

  it('drops unset query values and keeps coerced ones', () => {
    const op = defineOperation({
      ...loose,
      id: 'billing.test_q',
      path: '/v2/x',
      pathParams: undefined,
      query: z.strictObject({ limit: z.coerce.number().optional(), q: z.string().optional() }),
    })
    expect(prepareRequest(op, { query: { limit: '7' } }).params).toEqual({ limit: 7 })
    expect(prepareRequest(op, {}).params).toBeUndefined()
  })
})
