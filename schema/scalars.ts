import { builder } from './builder.js';

builder.scalarType('DateTime', {
  description: 'An instant, ISO 8601 in UTC.',
  serialize: (value) => (value instanceof Date ? value : new Date(value)).toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError('DateTime must be an ISO 8601 date.');
    return date;
  },
});
