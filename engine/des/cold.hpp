// TCO_COLD marks what the replay runs a few times a path (a node failure, a repair, a month
// boundary, the horizon's end): kept out of line, out of the flattened event loop
// (engine/des/simulator.cpp's replay). Inlined at every call site, such code made the loop too
// big for the compiler to keep its state in registers: about 5% more instructions a path. Out of
// line it is compiled for the baseline architecture; without FMA contraction the numbers are the
// same bits.
#pragma once

#if defined(__GNUC__)
#define TCO_COLD [[gnu::noinline, gnu::cold]]
#else
#define TCO_COLD
#endif
