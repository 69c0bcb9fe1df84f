/** The limits of a special event's fields (docs/api.md), shared by validation, storage and docs. */
export const EVENT_RULES = {
  nameMax: 200,
  locationMax: 200,
  descriptionMax: 5000,
  datesMaxItems: 500,
  dateMin: 1,
  dateMax: 64,
  priceMin: 0,
  priceMax: 1_000_000_000,
  capacityMin: 1,
  capacityMax: 1_000_000_000,
  capacityPerDateMin: 1,
  capacityPerDateMax: 1_000_000_000,
  durationMin: 1,
  durationMax: 1440,
} as const;

/** Examples taken from the museum API the seed describes. */
export const EVENT_EXAMPLE = {
  eventId: 'dad4bce8-f5cb-4078-a211-995864315e39',
  name: 'Mermaid Treasure Identification and Analysis',
  location: 'Under the seaaa 🦀 🎶 🌊.',
  eventDescription:
    'Join us as we review and classify a rare collection of 20 thingamabobs, gadgets, gizmos, whoosits, and whatsits, kindly donated by Ariel.',
  dates: ['2023-09-05', '2023-09-08'],
  price: 0,
} as const;
