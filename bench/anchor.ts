/**
 * The pinned anchor builds `npm run bench:compare` measures this build against, beside the build
 * the command line names. A chain of steps that each compare at 1.00 to the one before can still
 * drift 10% behind a build of two days earlier; a fixed point shows the drift. Move an anchor only
 * on purpose, in its own commit that says why, and add the comparison that justified it to
 * docs/performance.md ("Anchor comparisons").
 */

/** The anchor of every workload not in WORKLOAD_ANCHORS: 2026-11-24's build (docs/performance.md). */
export const PERF_ANCHOR = '61e279195a5625dd416c9697f1df04fc5ce58133';

/**
 * A workload added after PERF_ANCHOR has no route there: its anchor is the first commit that has
 * its route and workload, added here in the commit that adds the workload.
 */
export const WORKLOAD_ANCHORS: Readonly<Record<string, string>> = {
  'museum-hours': '29b7423',
  'calendar-feed': '555a4da',
  'list-anonymous': 'b447762',
  'list-anonymous-304': 'b447762',
  'list-anonymous-flood': '1580850',
  'list-anonymous-miss': '76d436f',
  'buy-general-slotted': '5c7d5b9',
  'buy-general-category': '752372b',
  'buy-order-4': 'c536760',
  'search-tickets-page': '8f37f88',
};

/** The anchor of `workload`. */
export function anchorOf(workload: string): string {
  return WORKLOAD_ANCHORS[workload] ?? PERF_ANCHOR;
}
