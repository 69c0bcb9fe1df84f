import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSecret, signatureHeaders } from './signature.js';

describe('webhook signatures', () => {
  it('are accepted by the standardwebhooks verifier, and refused for another body, id or secret', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ eventId: 'e', name: 'Sunset 🌅 "night"', price: 9.5 });
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders(secret, 'msg_1', now, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));

    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow('No matching signature found');
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow(
      'No matching signature found',
    );
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow('No matching signature found');
  });

  it('makes a different secret every time', () => {
    expect(new Set(Array.from({ length: 50 }, newSecret)).size).toBe(50);
  });
});
