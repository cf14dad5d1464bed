import { describe, expect, it } from 'vitest'
import * as catalog from '@contract/catalog/index'
import { AppFailure } from '@contract/errors'
import { RELEASES, type Release } from '@contract/releases'
import type { AccountClient } from '../http/client'
import { ServiceFailure } from '../http/errors'
import {
  answerOfFailure,
  inferRelease,
  probeRelease,
  RELEASE_PROBES,
  type ProbeAnswer,
} from './release-probe'
import { WRONG_API_KEY } from './sign-in'

const { findOperation } = catalog

/** The answers a service of `release` gives, read off the catalog. */
function answersOf(release: Release): ProbeAnswer[] {
  return RELEASE_PROBES.map((op) => ({
    op,
    seen: findOperation(op)!.releases.includes(release) ? 'present' : 'absent',
    why: '',
  }))
}

function status(code: AppFailure['error']['code'], s: number, detail: string | null = null) {
  return new ServiceFailure({ code, message: `status ${s}`, status: s }, detail)
}

/** A client that answers as a service of `release` without a session: 401 when present, 404 when not. */
function serviceOf(release: Release, calls: string[]): AccountClient {
  return {
    baseUrl: 'https://scanner.example.com',
    release: 'latest',
    async call(op) {
      calls.push(op)
      if (!findOperation(op)!.releases.includes(release)) throw status('NOT_FOUND', 404)
      throw status('UNAUTHORIZED', 401, 'The token is invalid or has expired')
    },
    read: () => Promise.reject(new Error('not used')),
    probe: async () => null,
    download: () => Promise.reject(new Error('not used')),
    close: () => undefined,
  }
}

describe('telling the release from the probes', () => {
  it.each(RELEASES)('recognises %s from the operations it has', (release) => {
    expect(inferRelease(answersOf(release), catalog)).toBe(release)
  })

  it('takes the newest release consistent with the answers it has', () => {
    const answers = answersOf('5.4.2').map((a) =>
      a.op === 'vulnerabilities.chat_history' ? { ...a, seen: 'unknown' as const } : a,
    )
    expect(inferRelease(answers, catalog)).toBe('5.5.x')
  })

  it('answers null when nothing could be asked or no release fits', () => {
    expect(
      inferRelease(
        RELEASE_PROBES.map((op) => ({ op, seen: 'unknown', why: '' })),
        catalog,
      ),
    ).toBe(null)
    const impossible = answersOf('latest').map((a) =>
      a.op === 'webhooks.list' ? { ...a, seen: 'absent' as const } : a,
    )
    expect(inferRelease(impossible, catalog)).toBeNull()
  })

  it('reads 404 as missing, 401/403/422 as present and the rest as no answer', () => {
    expect(answerOfFailure('x', status('NOT_FOUND', 404)).seen).toBe('absent')
    for (const s of [401, 403, 422])
      expect(answerOfFailure('x', status('BAD_REQUEST', s)).seen).toBe('present')
    expect(answerOfFailure('x', status('SERVER', 503)).seen).toBe('unknown')
    expect(answerOfFailure('x', new AppFailure({ code: 'OFFLINE', message: 'down' })).seen).toBe(
      'unknown',
    )
    expect(answerOfFailure('x', new Error('boom')).seen).toBe('unknown')
  })
})

describe('probing a service', () => {
  it.each(['5.0.0-beta1', '5.4.2', 'latest'] as const)(
    'detects %s with one line of evidence per probe',
    async (release) => {
      const calls: string[] = []
      const found = await probeRelease(serviceOf(release, calls), false)
      expect(found.release).toBe(release)
      expect(found.evidence).toHaveLength(RELEASE_PROBES.length + 1)
      expect(found.evidence.at(-1)).toContain(release)
      expect([...calls].sort()).toEqual([...RELEASE_PROBES].sort())
    },
  )

  it('says the API key is wrong instead of guessing when the service refuses it', async () => {
    const client: AccountClient = {
      ...serviceOf('latest', []),
      call: () =>
        Promise.reject(status('UNAUTHORIZED', 401, 'A valid x-api-key header is required')),
    }
    await expect(probeRelease(client, false)).rejects.toMatchObject({
      error: { code: 'UNAUTHORIZED', message: WRONG_API_KEY },
    })
  })

  it('asks chat history about a real vulnerability when signed in, and skips it without one', async () => {
    const asked: unknown[] = []
    const client = (vulns: { id: string }[]): AccountClient => ({
      ...serviceOf('5.5.x', []),
      async call(op, input) {
        if (op === 'vulnerabilities.list') return { data: vulns }
        asked.push([op, input?.path])
        if (!findOperation(op)!.releases.includes('5.5.x')) throw status('NOT_FOUND', 404)
        return { data: [] }
      },
    })
    expect((await probeRelease(client([{ id: 'vul-042' }]), true)).release).toBe('5.5.x')
    expect(asked).toContainEqual(['vulnerabilities.chat_history', { id: 'vul-042' }])
    asked.length = 0
    const without = await probeRelease(client([]), true)
    expect(asked.map((a) => (a as string[])[0])).not.toContain('vulnerabilities.chat_history')
    // Without chat history 5.5.x and 5.4.2 look alike: the newest of them is taken.
    expect(without.release).toBe('5.5.x')
    expect(without.evidence.join('\n')).toContain('no vulnerability to ask about')
  })
})
