import type { z } from 'zod'
import { normaliseBaseUrl, type addAccountInput } from '@contract/accounts'
import { fail } from '@contract/errors'
import type { AddAccountInput } from './account-service'
import type { Vault } from './vault'
import type { AccountRow } from '../store/accounts-repo'

/** The payload of accounts.add as main receives it (checked): a typed key or one to reuse. */
export type AddAccountRequest = z.output<typeof addAccountInput>

/**
 * The add as the account service takes it, with the API key typed or copied here from the
 * keychain entry of `apiKeyFrom` (another user of the same service). A reused key goes only to
 * that account's own base URL, with that account's CA bundle and plain-http choice (already
 * trusted for it); it never crosses to the renderer.
 */
export async function withApiKey(
  request: AddAccountRequest,
  deps: { source: (accountId: string) => AccountRow; vault: Pick<Vault, 'get'> },
): Promise<AddAccountInput> {
  const { apiKeyFrom, apiKey, ...rest } = request
  if (apiKeyFrom === undefined) {
    if (apiKey === undefined) return fail('VALIDATION', 'Type the API key of the service.')
    return { ...rest, apiKey }
  }
  const source = deps.source(apiKeyFrom)
  if (normaliseBaseUrl(request.baseUrl) !== source.baseUrl)
    fail('VALIDATION', `The API key of ${source.label} is only sent to its own service.`, {
      fieldErrors: {
        baseUrl: [`must be ${source.baseUrl} to reuse the API key of ${source.label}`],
      },
    })
  const stored = await deps.vault.get(source.id, 'api_key').catch(() => null)
  if (!stored)
    fail(
      'KEYCHAIN_UNAVAILABLE',
      `The API key of ${source.label} cannot be read from the system keychain now; type the key instead.`,
    )
  return {
    ...rest,
    apiKey: stored,
    ...(source.caBundle ? { caBundle: source.caBundle } : {}),
    ...(source.allowInsecureHttp ? { allowInsecureHttp: true } : {}),
  }
}
