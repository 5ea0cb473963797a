/** The time, from one place, so tests can move it (step-up expiry, lockouts, token expiry). */
export const clock = {
  now: (): Date => new Date(),
};
