import { scryptSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../server'
import { hashPassword, SANDBOX_PASSWORD } from './users'
import { signIn, startLogged } from './testing'

const full = (password: string, salt: string) =>
  scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 }).toString('hex')

describe('password hashes', () => {
  it('hashes the demo password with the same scrypt parameters as any other, every time', () => {
    const salt = '0123456789abcdef'
    expect(hashPassword(SANDBOX_PASSWORD, salt)).toBe(full(SANDBOX_PASSWORD, salt))
    expect(hashPassword(SANDBOX_PASSWORD, salt)).toBe(full(SANDBOX_PASSWORD, salt))
    expect(hashPassword(SANDBOX_PASSWORD, 'fedcba9876543210')).toBe(
      full(SANDBOX_PASSWORD, 'fedcba9876543210'),
    )
  })

  it('hashes a password chosen by a user with the full parameters and its own salt', () => {
    expect(hashPassword('Chosen-by-me-42', 'aaaaaaaaaaaaaaaa')).toBe(
      full('Chosen-by-me-42', 'aaaaaaaaaaaaaaaa'),
    )
    expect(hashPassword('Chosen-by-me-42', 'bbbbbbbbbbbbbbbb')).not.toBe(
      hashPassword('Chosen-by-me-42', 'aaaaaaaaaaaaaaaa'),
    )
  })
})

describe('seeded users after resets', () => {
  let sb: RunningSandbox

  beforeAll(async () => {
    sb = (await startLogged({ testMode: true })).sb
  })
  afterAll(() => sb.close())

  it('still sign in with the demo password and refuse any other one', async () => {
    for (let i = 0; i < 3; i++) {
      sb.reset()
      const ok = await signIn(sb, 'analyst@sandbox.test')
      expect(ok.status).toBe(200)
      const wrong = await signIn(sb, 'analyst@sandbox.test', 'sandbox-password-2')
      expect(wrong.status).toBe(401)
    }
  })
})
