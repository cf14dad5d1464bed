/** The tabs of My account, in order; the route's `tab` parameter names one. */
export const USER_TABS = [
  { name: 'profile', label: 'Profile' },
  { name: 'security', label: 'Sign-in and security' },
  { name: 'notifications', label: 'Notifications' },
  { name: 'permissions', label: 'Permissions' },
  { name: 'organization', label: 'Organization and plans' },
  { name: 'account', label: 'Account' },
] as const

/** One tab's name. */
export type UserTab = (typeof USER_TABS)[number]['name']
