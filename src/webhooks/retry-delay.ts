/** The longest wait between two attempts of a delivery. */
export const MAX_RETRY_DELAY_MS = 5 * 60_000;

/**
 * The wait before the next attempt of a delivery that has failed `attempts` times: doubling from
 * about a second up to MAX_RETRY_DELAY_MS, each drawn between half and all of that ("equal
 * jitter"), so that receivers coming back are not hit by every sender at the same moment. A
 * receiver down for a few seconds is tried again within seconds of coming back.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(1000 * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
