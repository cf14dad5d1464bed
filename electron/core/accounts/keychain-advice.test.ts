import { describe, expect, it } from 'vitest'
import { keychainAdvice } from './keychain-advice'

describe('what the keychain warning tells the user to do', () => {
  it('names the keychain of each system to install, start or unlock', () => {
    expect(keychainAdvice('linux', 'loaded')).toMatch(
      /^Start and unlock a Secret Service keychain: install GNOME Keyring \(package gnome-keyring\)/,
    )
    expect(keychainAdvice('darwin', 'loaded')).toMatch(
      /^Unlock the login keychain in Keychain Access/,
    )
    expect(keychainAdvice('win32', 'loaded')).toMatch(/Credential Manager/)
    for (const platform of ['linux', 'darwin', 'win32'] as const)
      expect(keychainAdvice(platform, 'loaded')).toMatch(
        /tries the keychain again every 30 seconds\.$/,
      )
  })

  it('says to install what is missing, and to restart, when the keychain module did not load', () => {
    expect(keychainAdvice('linux', 'missing')).toMatch(/libsecret-1-0.*restart it\.$/)
    expect(keychainAdvice('darwin', 'missing')).toBe(
      'ScanDesk’s keychain module did not load: reinstall ScanDesk, then restart it.',
    )
    // Nothing is retried without the module: the advice does not promise it.
    for (const platform of ['linux', 'darwin', 'win32'] as const)
      expect(keychainAdvice(platform, 'missing')).not.toMatch(/again every/)
  })
})
