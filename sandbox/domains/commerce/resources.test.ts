import { describe, expect, it } from 'vitest'
import { createDb } from '../../engine/db'
import type { SandboxContext } from '../../types'
import { ownedResources, transferResources } from './resources'

function fakeCtx(): SandboxContext {
  const db = createDb()
  const insert = (collection: string, id: string, owner: string | null, shown = false) =>
    db.insert(collection, {
      id,
      type: collection,
      attributes: { name: id, updated_at: 'then', ...(shown ? { owner_id: owner } : {}) },
      internal: shown ? {} : { owner_id: owner },
    })
  insert('targets', 'tgt-001', 'usr-002')
  insert('targets', 'tgt-002', 'usr-003')
  insert('reports', 'rpt-001', 'usr-002', true)
  insert('users', 'usr-002', 'usr-002')
  return { db, now: () => new Date('2026-01-02T03:04:05Z') } as unknown as SandboxContext
}

describe('owned resources', () => {
  it('finds rows owned through internal or shown owner_id, never users themselves', () => {
    const ctx = fakeCtx()
    const owned = ownedResources(ctx, 'usr-002')
    expect(
      Object.fromEntries(Object.entries(owned).map(([k, v]) => [k, v.map((r) => r.id)])),
    ).toEqual({ reports: ['rpt-001'], targets: ['tgt-001'] })
  })

  it('moves every owned row to the new owner and counts them per collection', () => {
    const ctx = fakeCtx()
    expect(transferResources(ctx, 'usr-002', 'usr-009')).toEqual({ reports: 1, targets: 1 })
    expect(ownedResources(ctx, 'usr-002')).toEqual({})
    expect(ctx.db.get('reports', 'rpt-001')!.attributes).toMatchObject({
      owner_id: 'usr-009',
      updated_at: '2026-01-02T03:04:05.000Z',
    })
    expect(ctx.db.get('targets', 'tgt-001')!.internal!.owner_id).toBe('usr-009')
    expect(ctx.db.get('targets', 'tgt-002')!.internal!.owner_id).toBe('usr-003')
  })
})
