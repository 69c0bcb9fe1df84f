import { ApiProperty } from '@nestjs/swagger';

/** A subscription as listed: never its secret. */
export class WebhookResponse {
  @ApiProperty({ format: 'uuid' })
  webhookId: string;

  @ApiProperty({ format: 'uri' })
  url: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ description: 'False once deliveries have failed for WEBHOOK_RETRY_SECONDS; POST …/enable resumes.' })
  enabled: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'Why the subscription was disabled.' })
  disabledReason: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastSuccessAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastFailureAt: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The last failure: the HTTP status or the connection error.',
  })
  lastFailureReason: string | null;

  @ApiProperty({ type: Number, description: 'Deliveries not yet acknowledged by the receiver.' })
  pendingDeliveries: number;
}

/** The answer to POST /webhooks: the only time the secret is shown. */
export class CreatedWebhookResponse {
  @ApiProperty({ format: 'uuid' })
  webhookId: string;

  @ApiProperty({ format: 'uri' })
  url: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({
    description:
      'The signing secret (Standard Webhooks: `whsec_` and base64 of 24 random bytes). Shown only in this answer: keep it.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}
