import { describe, expect, it } from 'vitest'
import { findOperation, type GroupId, type OperationDef } from '@contract/catalog'
import { describeBody } from '@/data/schemaFields'
import { createAppRouter } from '@/router'
import { DETAIL_VIEWS, GROUP_VIEWS } from '@/screens'
import {
  BUILT_GROUPS,
  RESOURCES,
  RESOURCE_GROUPS,
  RESOURCE_LISTS,
  detailName,
  pickerFor,
  resourceByKey,
} from '.'

const op = (id: string): OperationDef => {
  const found = findOperation(id)
  if (!found) throw new Error(`${id} is not in the catalog`)
  return found
}
const pathParams = (id: string) => [...op(id).path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
const queryNames = (id: string) => describeBody(op(id).query).map((f) => f.name)

// The attribute names a list operation's rows declare (the loose object's shape).
function attributeNames(id: string): string[] {
  type Def = {
    type: string
    shape?: Record<string, unknown>
    element?: unknown
    innerType?: unknown
  }
  const def = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def
  const unwrap = (s: unknown): unknown => {
    const d = def(s)
    return d.type === 'optional' || d.type === 'nullable' ? unwrap(d.innerType) : s
  }
  const data = def(unwrap(def(op(id).response).shape?.data)).element
  const attributes = def(unwrap(data)).shape?.attributes
  return Object.keys(def(unwrap(attributes)).shape ?? {})
}

describe.each(RESOURCES.map((r) => [r.key, r] as const))('registry entry %s', (_key, r) => {
  it('lists with a paged GET of its own group', () => {
    const list = op(r.ops.list)
    expect(list.method).toBe('GET')
    expect(list.group).toBe(r.group)
    expect(queryNames(r.ops.list)).toContain('page')
  })

  it('acts on one row through operations that take its {id}', () => {
    for (const id of [r.ops.show, r.ops.update, r.ops.delete].filter(Boolean) as string[])
      expect(pathParams(id), id).toEqual(['id'])
    // A call or form gets the row's id as {id}; a dialog of its own builds the path itself from
    // the row (a subscription's organization and its own id), still ids only.
    for (const a of r.rowActions ?? [])
      if (a.dialog) for (const p of pathParams(a.op)) expect(p, a.op).toMatch(/^(id|\w+_id)$/)
      else expect(pathParams(a.op), a.op).toEqual(['id'])
    for (const p of r.panels ?? []) {
      expect(pathParams(p.op), p.op).toEqual(['id'])
      expect(op(p.op).method).toBe('GET')
    }
    for (const t of r.toolbar ?? []) expect(pathParams(t.op), t.op).toEqual([])
    if (r.ops.create) expect(op(r.ops.create).method).toBe('POST')
    // A guided way to create stands in front of the generic form, never instead of it.
    if (r.createVia) {
      expect(op(r.createVia.op).method).toBe('POST')
      expect(r.ops.create, 'the generic form the guided way offers').toBeDefined()
    }
    if (r.ops.bulkDelete)
      expect(describeBody(op(r.ops.bulkDelete).body).map((f) => f.name)).toEqual(['ids'])
  })

  it('shows columns its list answers and filters its list takes', () => {
    const names = attributeNames(r.ops.list)
    for (const c of r.columns) expect(names, c.key).toContain(c.key)
    expect(names).toContain(r.titleField)
    for (const f of r.filters ?? []) expect(queryNames(r.ops.list), f).toContain(f)
    for (const v of r.views ?? [])
      expect(attributeNames(v.op)).toEqual(expect.arrayContaining(r.columns.map((c) => c.key)))
  })

  it('shows as pending only writes the outbox keeps, of its own group', () => {
    for (const c of r.columns)
      for (const id of c.pending?.ops ?? []) {
        expect(op(id).offline, `${c.key}: ${id}`).toBe('queue')
        expect(op(id).group, `${c.key}: ${id}`).toBe(r.group)
      }
  })

  it('relates only to resources that exist, through lists that take its id', () => {
    for (const rel of r.related ?? []) {
      const target = resourceByKey(rel.resource)
      expect(target, rel.resource).toBeDefined()
      if (rel.op) {
        expect(pathParams(rel.op)).toEqual(['id'])
        const names = attributeNames(rel.op)
        for (const c of target!.columns) expect(names, `${rel.op} ${c.key}`).toContain(c.key)
      } else expect(queryNames(target!.ops.list)).toContain(rel.filter)
      if (rel.show) expect(pathParams(rel.show.op)).toEqual(['id', rel.show.param])
    }
  })

  it('picks referenced resources from lists that exist', () => {
    for (const [name, o] of Object.entries(r.fields ?? {}))
      if (o.picker) expect(pickerFor(r, name)?.key, name).toBe(o.picker)
    for (const c of r.columns) if (c.link) expect(resourceByKey(c.link), c.link).toBeDefined()
  })

  it('names other records only through attributes its rows have', () => {
    const names = attributeNames(r.ops.list)
    for (const c of r.columns) {
      if (c.linkId) expect(c.link, c.key).toBeDefined()
      if (c.linkId) expect(names, `${c.key} → ${c.linkId}`).toContain(c.linkId)
      if (c.linkType) expect(names, `${c.key} → ${c.linkType}`).toContain(c.linkType)
    }
  })
})

describe('the registry', () => {
  it('declares every resource once, each key with the list its types were checked against', () => {
    const keys = RESOURCES.map((r) => r.key)
    expect(new Set(keys).size).toBe(keys.length)
    expect([...keys].sort()).toEqual(Object.keys(RESOURCE_LISTS).sort())
    for (const r of RESOURCES) expect(r.ops.list, r.key).toBe(RESOURCE_LISTS[r.key])
  })

  it('nests only resources some detail page shows', () => {
    const shown = new Set(RESOURCES.flatMap((r) => (r.related ?? []).map((x) => x.resource)))
    for (const r of RESOURCES.filter((x) => x.nested)) expect(shown, r.key).toContain(r.key)
  })
})

describe('views of their own', () => {
  const routes = createAppRouter().getRoutes()
  const componentOf = (name: string) => routes.find((r) => r.name === name)?.components?.default
  const customLists = RESOURCES.filter((r) => r.custom?.list)
  const customDetails = RESOURCES.filter((r) => r.custom?.detail)

  it('replace a group’s generic list where one entry of the group names its view', () => {
    const groups = customLists.map((r) => r.group)
    expect(new Set(groups).size, 'one view per group').toBe(groups.length)
    for (const r of customLists) {
      expect(GROUP_VIEWS[r.group], r.key).toBe(r.custom!.list)
      expect(componentOf(r.group), r.key).toBe(r.custom!.list)
    }
    // A group with entries has a view of its own only through one of them.
    const own = Object.keys(GROUP_VIEWS).filter((g) => RESOURCE_GROUPS.has(g as GroupId))
    expect(own.sort()).toEqual([...groups].sort())
  })

  it('count as built groups (the sidebar offers them), each with its route', () => {
    for (const group of Object.keys(GROUP_VIEWS) as GroupId[]) {
      expect(BUILT_GROUPS.has(group), group).toBe(true)
      expect(componentOf(group), group).toBe(GROUP_VIEWS[group])
    }
  })

  it('replace a record’s generic detail where its entry names its view', () => {
    expect(Object.keys(DETAIL_VIEWS).sort()).toEqual(customDetails.map((r) => r.key).sort())
    for (const r of customDetails) {
      expect(r.ops.show, `${r.key} has a detail page`).toBeDefined()
      expect(componentOf(detailName(r)), r.key).toBe(r.custom!.detail)
    }
    const views = new Set(customDetails.map((r) => r.custom!.detail))
    for (const r of RESOURCES.filter((x) => x.ops.show && !x.custom?.detail))
      expect(views.has(componentOf(detailName(r)) as never), r.key).toBe(false)
  })
})
