import { builder } from './builder.js';

// The root Mutation type; each area file adds its own mutation fields (loaded after this one).
builder.mutationType({});
