// The demo service's other users, as the account panel offers them (issue 36 §10): the sandbox
// seeds them (sandbox/domains/identity/seed.ts; demo-user.test.ts checks this list against it).
// Their password is the sandbox's public demo password, printed by `npm run sandbox` and in the
// README: not a secret of anyone's.

/** The password of every demo user (the sandbox's public demo password). */
export const DEMO_PASSWORD = 'sandbox-password'

/** One user of the demo service besides the one the demo signs in as. */
export interface DemoSignIn {
  username: string
  /** Their role and what it lets them do, in words. */
  role: string
  /** What signing in as them takes beyond the password, when anything. */
  note?: string
}

/** The demo service's other users, by what a tester would try them for. */
export const DEMO_SIGN_INS: readonly DemoSignIn[] = [
  { username: 'analyst@sandbox.test', role: 'analyst of Acme Payments' },
  { username: 'manager@sandbox.test', role: 'manager of Acme Payments, may approve SAQs' },
  {
    username: 'admin@sandbox.test',
    role: 'administrator, sees every organization',
    note: 'a one-time code from an authenticator app: the sandbox log prints it',
  },
  {
    username: 'sms@sandbox.test',
    role: 'analyst of Acme Payments',
    note: 'a one-time code by SMS: the sandbox log prints it',
  },
]
