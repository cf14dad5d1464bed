// Small builders of contract values for unit tests.
import type { AccountView } from '@contract/accounts'

/** An account as main would describe it. */
export function account(id: string, extra: Partial<AccountView> = {}): AccountView {
  return {
    id,
    label: `Account ${id}`,
    baseUrl: 'https://scanner.example.com',
    username: 'analyst@example.com',
    release: 'latest',
    color: '#3366ff',
    authMethod: 'password',
    signedIn: true,
    secretsInMemoryOnly: false,
    isDemo: false,
    createdAt: '2030-01-01T00:00:00Z',
    ...extra,
  }
}

/** An upcoming scans answer of api.call with `n` items named after `prefix`. */
export function upcomingAnswer(prefix: string, n: number, fromCache = false) {
  return {
    data: {
      data: Array.from({ length: n }, (_, i) => ({
        id: `${prefix}-${i + 1}`,
        type: 'upcoming_scan',
        attributes: {
          name: `${prefix} scan ${i + 1}`,
          description: `${prefix} description ${i + 1}`,
          next_scheduled_at: new Date(Date.UTC(2030, 0, 2 + i, 9)).toISOString(),
          in_timezone: 'UTC',
        },
      })),
    },
    fetchedAt: '2030-01-01T00:00:00Z',
    fromCache,
  }
}
