import { beforeAll } from 'vitest';
import { createMuseumClient, type MuseumClient } from '../../client/index.js';
import { type TestApp, TEST_USER, useTestApp } from './test-app.js';

/** Non-ASCII and a colon: the client must send the credentials UTF-8 encoded (RFC 7617). */
export const TYPED_CLIENT_PASSWORD = 'Kraken: 🦀 ñandú — Ünïcødé 12';

/**
 * A service for the typed client's tests (client/index.ts, what a frontend team uses), and the
 * client that drives it as the admin, ready once the service is: read `client.museum` in a test.
 * test/typed-client.e2e-spec.ts holds the shared tests, each feature's folder its own.
 */
export function useTypedClient(): { t: TestApp; client: { museum: MuseumClient } } {
  const t = useTestApp({ ADMIN_PASSWORD: TYPED_CLIENT_PASSWORD, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  const client = {} as { museum: MuseumClient };
  beforeAll(() => {
    client.museum = createMuseumClient(t.baseUrl, { username: TEST_USER, password: TYPED_CLIENT_PASSWORD });
  });
  return { t, client };
}
