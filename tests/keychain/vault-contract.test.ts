// The vault contract (tests/support/vault-contract.ts) run against every Vault: the in-memory
// vault, the resilient vault holding secrets in memory (no keychain on the system), and, where
// scripts/test.sh started a Secret Service (gnome-keyring in a private D-Bus session), the
// keychain vault through keytar and the resilient vault over it.
import { describe } from 'vitest'
import { createKeychainVault, KeychainVault } from '../../electron/core/accounts/keychain-vault'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import { ResilientVault } from '../../electron/core/accounts/resilient-vault'
import { vaultContract } from '../support/vault-contract'

const READY = process.env.SCANDESK_KEYRING_READY === '1'

async function keychain(): Promise<KeychainVault> {
  const vault = await createKeychainVault()
  if (!(vault instanceof KeychainVault)) throw new Error(`keytar did not load: ${vault.reason}`)
  return vault
}

vaultContract('the memory vault', async () => new MemoryVault())
vaultContract(
  'the resilient vault without a keychain (memory)',
  async () => new ResilientVault({ keychain: async () => ({ reason: 'no keychain here' }) }),
)

// Without SCANDESK_KEYRING_READY, tests/keychain/keychain-vault.test.ts fails CI (it says why).
describe.skipIf(!READY)(
  'with the Secret Service (SCANDESK_KEYRING_READY=1, set by npm test)',
  () => {
    vaultContract('the keychain vault (keytar, Secret Service)', keychain)
    vaultContract(
      'the resilient vault over the keychain',
      async () => new ResilientVault({ keychain: () => createKeychainVault() }),
    )
  },
)
