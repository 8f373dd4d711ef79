// A test hook: with TCO_TEST_ABORT_RANK_AFTER_BLOCK=R in the environment, rank R ends itself
// abruptly (exit 70, no MPI_Finalize) after it finishes its first block of work, as a node lost
// mid-run would; the launcher then ends the whole job with a non-zero exit and no output is
// written (tests/CMakeLists.txt, label mpi).
#pragma once

namespace tco {

void abort_if_test_asks_after_block();

// A test hook: with TCO_TEST_FAIL_RANK_ALONE=R in the environment, rank R throws an InputError as
// it starts its share of the paths, outside every collective, as a trace unreadable on one node
// would; cli/main.cpp must then end the whole job (exit 2) instead of leaving the others waiting.
void fail_alone_if_test_asks();

}  // namespace tco
