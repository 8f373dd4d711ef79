// TCO_COLD marks what the replay runs a few times a path (a node failure, a repair, a month
// boundary, the horizon's end): kept out of line, out of the flattened event loop
// (engine/des/simulator.cpp's replay). Inlined at every call site, such code made the loop's
// code 2.3 times bigger (178 KB against 77 KB) and cost about 5% more instructions a path
// (cachegrind; more register spills, as far as we can tell). Out of line it is compiled for the
// baseline architecture; without FMA contraction the numbers are the same bits.
#pragma once

#if defined(__GNUC__)
#define TCO_COLD [[gnu::noinline, gnu::cold]]
#else
#define TCO_COLD
#endif
