/**
 * What the user can do about a keychain ScanDesk cannot use, for the warning the window shows:
 * which keychain to install, start or unlock on this system. `module` says whether ScanDesk's own
 * keychain module (keytar) loaded: when it did not, no keychain can help until it is installed.
 */
export function keychainAdvice(platform: NodeJS.Platform, module: 'loaded' | 'missing'): string {
  const retry = 'ScanDesk tries the keychain again every 30 seconds.'
  if (module === 'missing')
    return platform === 'linux'
      ? 'ScanDesk’s keychain module did not load: install libsecret (package libsecret-1-0 on Debian and Ubuntu, libsecret on Fedora), reinstall ScanDesk if that does not help, then restart it.'
      : 'ScanDesk’s keychain module did not load: reinstall ScanDesk, then restart it.'
  if (platform === 'darwin')
    return `Unlock the login keychain in Keychain Access (Applications › Utilities). ${retry}`
  if (platform === 'win32')
    return `Sign in to Windows with your own account: Credential Manager is not available to temporary or service profiles. ${retry}`
  return `Start and unlock a Secret Service keychain: install GNOME Keyring (package gnome-keyring) or turn on KeePassXC’s Secret Service integration, run ScanDesk in a desktop session (the keychain is reached over D-Bus), and unlock the keychain (Passwords and Keys, or sign out and in again). ${retry}`
}
