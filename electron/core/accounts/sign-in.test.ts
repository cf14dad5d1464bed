import { describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { ServiceFailure } from '../http/errors'
import {
  CHALLENGE_OVER,
  challengeFailure,
  maskPhone,
  signInFailure,
  WRONG_API_KEY,
  WRONG_CODE,
  WRONG_PASSWORD,
} from './sign-in'

const refused = (detail: string) =>
  new ServiceFailure({ code: 'UNAUTHORIZED', message: 'x', status: 401 }, detail)

describe('masking a phone number', () => {
  it.each([
    ['+442071838750', '+44 •••• ••8750'],
    ['+44 *** *** 8750', '+44 •••• ••8750'],
    ['+14155550142', '+1 •••• ••0142'],
    ['+1 *** *** 0142', '+1 •••• ••0142'],
    ['+353 1 234 5678', '+353 ••••5678'],
    ['020 7183 8750', '•••• •••8750'],
    ['8750', '••••••••'],
    ['+44 *** *** ****', '••••••••'],
  ])('shows %s as %s', (phone, shown) => {
    expect(maskPhone(phone)).toBe(shown)
  })
})

describe('explaining a refused step', () => {
  it('tells a wrong password from a wrong API key', () => {
    expect((signInFailure(refused('invalid username or password')) as AppFailure).error).toEqual({
      code: 'UNAUTHORIZED',
      message: WRONG_PASSWORD,
      status: 401,
    })
    expect(
      (signInFailure(refused('A valid x-api-key header is required')) as AppFailure).error.message,
    ).toBe(WRONG_API_KEY)
  })

  it('keeps a challenge open after a wrong code and ends it when the service closed it', () => {
    const wrong = challengeFailure(refused('invalid or already used code')) as AppFailure
    expect(wrong.error).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_CODE })
    for (const detail of [
      'challenge expired: sign in again',
      'invalid or already used code; too many attempts, sign in again',
      'invalid challenge: sign in again',
    ])
      expect((challengeFailure(refused(detail)) as AppFailure).error).toMatchObject({
        code: 'CHALLENGE_EXPIRED',
        message: CHALLENGE_OVER,
      })
  })

  it('passes other failures through unchanged', () => {
    const offline = new AppFailure({ code: 'OFFLINE', message: 'gone' })
    expect(challengeFailure(offline)).toBe(offline)
    expect(signInFailure(offline)).toBe(offline)
  })
})
