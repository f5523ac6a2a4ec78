import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a serving process, imported first by server/main.ts (and by the dashboard bench's
 * floor, so both run under the same engine settings).
 *
 * Allocation-site pretenuring is off. Under load V8 decides that a few allocation sites of the
 * request path (containers made per query and per answer) always outlive a young-generation GC,
 * and from then on allocates them straight into the old generation. A finished request's container
 * then stays there, dead, until the next full GC, and its pointers keep the young rows and strings
 * it held alive through every scavenge: about 2 MB promoted per scavenge on the 500-domain
 * dashboard, which then costs the full GCs too. Without pretenuring the same load promotes about
 * 0.1 MB per scavenge, and a request costs a fifth less CPU (README, "Measured").
 * The flag is read at every GC, so setting it here, before the server starts, is enough.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
