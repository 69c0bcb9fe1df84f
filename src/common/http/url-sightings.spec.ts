import { describe, expect, it } from 'vitest';
import { UrlSightings } from './url-sightings.js';

describe('UrlSightings', () => {
  it('says a URL was seen when it was read before and its sighting has not run out', () => {
    const sightings = new UrlSightings(16);
    expect(sightings.seen('/a?x=1', 0, 100)).toBe(false);
    expect(sightings.seen('/a?x=1', 50, 150)).toBe(true);
    // Each read counts from itself: 150 is the last sighting's end.
    expect(sightings.seen('/a?x=1', 149, 249)).toBe(true);
    expect(sightings.seen('/a?x=1', 249, 349)).toBe(false);
    // Another URL was never seen.
    expect(sightings.seen('/a?x=2', 250, 350)).toBe(false);
  });

  it('rounds its slots up to a power of two, and holds at most that many URLs', () => {
    const sightings = new UrlSightings(1000);
    expect(sightings.slots).toBe(1024);
    // Ten times as many URLs as slots: at most `slots` of them can still be known.
    const urls = Array.from({ length: 10_240 }, (_, i) => `/special-events?endDate=2030-01-${i}`);
    for (const url of urls) sightings.seen(url, 0, 1_000);
    let known = 0;
    for (const url of urls) if (sightings.knows(url, 0)) known++;
    expect(known).toBeGreaterThan(0);
    expect(known).toBeLessThanOrEqual(1024);
  });

  it('spreads URLs that differ in one character over the slots', () => {
    const sightings = new UrlSightings(4096);
    const urls = Array.from({ length: 2000 }, (_, i) => `/special-events?startDate=2026-03-01&endDate=${i}`);
    for (const url of urls) sightings.seen(url, 0, 1_000);
    const known = urls.filter((url) => sightings.knows(url, 0)).length;
    // Direct-mapped: 2,000 keys in 4,096 slots keep about 4096 × (1 - e^(-2000/4096)) ≈ 1,585 apart
    // when the hash spreads them; a hash that clustered them would keep far fewer.
    expect(known).toBeGreaterThan(1450);
  });
});
