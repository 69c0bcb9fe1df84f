/**
 * What a feature's reads are under public read (PUBLIC_READ): the default export of
 * `test/<feature>/public-reads.ts`, which test/public-read.e2e-spec.ts collects beside the
 * events' own.
 */
export interface PublicReadRows {
  /** Its reads open to anonymous clients with public read on (with it off, each a 401). */
  readonly paths?: readonly string[];
  /** The operations of those reads: the document says credentials are optional for them. */
  readonly operationIds?: readonly string[];
  /** Other methods and deeper paths of those reads: a 401 without credentials all the same. */
  readonly closed?: readonly (readonly ['get' | 'post' | 'put' | 'patch' | 'delete', string])[];
  /** Reads of its that stay behind credentials: a 401 without them, no CORS for an unlisted origin. */
  readonly privateReads?: readonly string[];
}
