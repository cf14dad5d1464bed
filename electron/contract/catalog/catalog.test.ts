import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { RELEASES } from '../releases'
import { GROUP_IDS, operations } from './index'

function placeholders(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1])
}

describe('the operation catalog', () => {
  it('names every operation <group>.<action> inside its own group', () => {
    for (const op of operations) {
      expect(op.id.split('.')[0], op.id).toBe(op.group)
      expect(op.id).toMatch(/^[a-z_]+\.[a-z_]+$/)
    }
  })

  it('declares exactly the path parameters its path template uses', () => {
    for (const op of operations) {
      const shape = (op.pathParams as z.ZodObject).shape
      expect(Object.keys(shape).sort(), op.id).toEqual(placeholders(op.path).sort())
    }
  })

  it('never has two operations on the same method and path', () => {
    const seen = new Map<string, string>()
    for (const op of operations) {
      const key = `${op.method} ${op.path.replace(/\{[a-z_]+\}/g, '{}')}`
      expect(seen.get(key), `${op.id} collides with ${seen.get(key)}`).toBeUndefined()
      seen.set(key, op.id)
    }
  })

  it('uses the /v2 prefix everywhere but sign-in, and only known groups and releases', () => {
    for (const op of operations) {
      if (op.path !== '/auth/sign_in') expect(op.path.startsWith('/v2/'), op.id).toBe(true)
      expect(GROUP_IDS).toContain(op.group)
      expect(op.releases.length, op.id).toBeGreaterThan(0)
      for (const r of op.releases) expect(RELEASES).toContain(r)
    }
  })

  it('sends bodies only with methods that carry one', () => {
    for (const op of operations) {
      if (op.method === 'GET') expect(op.body, op.id).toBeNull()
    }
  })
})
