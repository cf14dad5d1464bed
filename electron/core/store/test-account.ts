// A stored account for tests of the repositories and what reads them.
import type { AccountRow } from './accounts-repo'

/** An account row with every column set (a password account on a made-up service). */
export function accountRow(over: Partial<AccountRow> = {}): AccountRow {
  return {
    id: 'acc-00000001',
    label: 'Acme',
    baseUrl: 'https://scanner.example.com',
    username: 'analyst@example.com',
    release: 'latest',
    color: '#3366ff',
    authMethod: 'password',
    isDemo: false,
    allowInsecureHttp: false,
    caBundle: null,
    rememberPassword: false,
    impersonating: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...over,
  }
}
