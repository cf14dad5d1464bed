// Builders shared by the account dialogs' tests (their DOM helpers are in @/test/dom).
import type { ChallengeView } from '@contract/sessions'

/** A challenge as main hands it out (no service token in it). */
export function challengeView(extra: Partial<ChallengeView> = {}): ChallengeView {
  return {
    challengeId: 'chal-0000000000000001',
    accountId: 'acct-aaaa',
    label: 'Production',
    username: 'admin@example.com',
    methods: ['app', 'sms', 'recovery'],
    defaultMethod: 'app',
    expiresAt: '2030-01-01T00:05:00Z',
    phoneHint: null,
    smsResendAt: null,
    ...extra,
  }
}
