// Fixtures the SAQ screens' tests share.

/** The sections of the tests' SAQ A template: requirements 2.2.1, 2.2.2 and 8.3.1. */
export const SAQ_A_SECTIONS = [
  {
    number: '2',
    title: 'Secure configuration',
    requirements: [
      { number: '2.2.1', title: 'Configuration standards', required: true },
      { number: '2.2.2', title: 'Vendor defaults', required: true },
    ],
  },
  {
    number: '8',
    title: 'Identify users',
    requirements: [{ number: '8.3.1', title: 'Authentication factors', required: true }],
  },
]
