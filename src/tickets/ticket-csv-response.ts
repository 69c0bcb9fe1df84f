import type { Response } from 'express';
import { csvHeader, csvRows } from './ticket-csv.js';
import type { ExportRow } from './tickets.repository.js';

/** Resolves when `response` can take more (drain), or has closed (the client went away). */
function writable(response: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/**
 * Streams a CSV export: the first batch is read before anything is sent, so a refusal or a
 * database that does not answer is still a problem-details answer; then one batch at a time,
 * reading the next only once the socket has taken the last (backpressure), and stopping when the
 * client goes away. A failure after the first bytes can no longer change the status: the response
 * is cut off (no final chunk), so a client never takes a partial export for a whole one.
 */
export async function sendCsv(
  response: Response,
  batches: AsyncGenerator<readonly ExportRow[]>,
  withSecrets: boolean,
  filename: string,
): Promise<void> {
  let next = await batches.next();
  response.status(200);
  response.setHeader('Content-Type', 'text/csv; charset=utf-8; header=present');
  response.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  response.write(csvHeader(withSecrets));
  try {
    while (!next.done) {
      if (!response.write(csvRows(next.value, withSecrets))) await writable(response);
      if (response.destroyed) return;
      next = await batches.next();
    }
    response.end();
  } catch (error) {
    response.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    await batches.return(undefined);
  }
}
