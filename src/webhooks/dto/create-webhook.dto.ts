import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { rule, textProblem } from '../../common/validation/validators.js';

export const MAX_URL_LENGTH = 2048;

/** Why `value` is not an absolute http(s) URL the service could POST to, or null. */
function urlProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters long`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL, e.g. https://hooks.example.org/museum';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  return null;
}

/** The body of POST /webhooks. */
export class CreateWebhookDto {
  @ApiProperty({
    type: String,
    format: 'uri',
    maxLength: MAX_URL_LENGTH,
    description:
      'Where deliveries are POSTed. https only; plain http, and loopback, private or link-local addresses, only for ' +
      'the hosts the operator lists in WEBHOOK_ALLOWED_HOSTS. A name that resolves to such an address is refused too. ' +
      'Redirects are not followed.',
    example: 'https://hooks.example.org/museum',
  })
  @rule('isWebhookUrl', urlProblem)
  url: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 200,
    nullable: true,
    description: 'What the subscription is for, shown in the list.',
    example: 'Newsletter tool',
  })
  @IsOptional()
  @rule('isDescription', (value) => textProblem(value, 200))
  description?: string | null;
}
