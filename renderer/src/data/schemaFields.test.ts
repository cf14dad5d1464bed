import { describe, expect, it } from 'vitest'
import { catalog } from '@contract/catalog'
import { describeBody, labelOf, type FieldSpec } from './schemaFields'
import { toBody } from './typedSchema'

const field = (op: keyof typeof catalog, name: string): FieldSpec | undefined =>
  describeBody(catalog[op].body).find((f) => f.name === name)

describe('deriving form fields from body schemas', () => {
  it('gives each schema kind its control and rules', () => {
    expect(field('targets.create', 'name')).toMatchObject({
      kind: 'text',
      required: true,
      max: 200,
    })
    expect(field('targets.create', 'description')).toMatchObject({
      kind: 'textarea',
      required: false,
    })
    expect(field('targets.create', 'tags')).toMatchObject({ kind: 'string-list', required: false })
    expect(field('exceptions.create', 'kind')?.kind).toBe('enum')
    expect(field('exceptions.create', 'kind')?.options.length).toBeGreaterThan(1)
    expect(field('exceptions.create', 'expires_at')).toMatchObject({
      kind: 'datetime',
      required: true,
    })
    expect(field('webhooks.create', 'events')?.kind).toBe('enum-list')
    expect(field('webhooks.create', 'active')).toMatchObject({ kind: 'boolean', required: false })
    expect(field('scanners.create', 'port')?.kind).toBe('number')
    expect(field('credentials.create', 'password')?.kind).toBe('password')
    expect(field('credentials.create', 'private_key')?.kind).toBe('password')
    expect(field('users.invite', 'email')?.kind).toBe('email')
    expect(field('scans.update', 'scanner_id')).toMatchObject({ nullable: true, required: false })
  })

  it('marks what it cannot render instead of guessing', () => {
    expect(field('port_lists.create', 'ranges')?.kind).toBe('unsupported')
    expect(field('billing.create_plan', 'features')?.kind).toBe('unsupported')
  })

  it('has no fields for operations without a body', () => {
    expect(describeBody(catalog['scans.start'].body)).toEqual([])
  })

  it('names fields for people', () => {
    expect(labelOf('scanner_id')).toBe('Scanner')
    expect(labelOf('target_ids')).toBe('Target')
    expect(labelOf('expires_at')).toBe('Expires at')
    expect(labelOf('saq_type')).toBe('SAQ type')
    expect(labelOf('callback_url')).toBe('Callback URL')
  })
})

describe('turning form values into a body', () => {
  const fields = describeBody(catalog['scans.update'].body)

  it('leaves empty optional values out', () => {
    expect(toBody({ name: 'Nightly', description: '', target_ids: [] }, fields)).toEqual({
      name: 'Nightly',
    })
  })

  it('clears a nullable field the user emptied, and only that', () => {
    const body = toBody({ scanner_id: '', port_list_id: '' }, fields, {
      scanner_id: 'scn-001',
      port_list_id: null,
    })
    expect(body).toEqual({ scanner_id: null })
  })

  it('keeps an empty required value so the schema names the field', () => {
    const create = describeBody(catalog['targets.create'].body)
    const body = toBody({ name: '', address: '10.0.0.1' }, create)
    const parsed = catalog['targets.create'].body.safeParse(body)
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0].path).toEqual(['name'])
  })
})
