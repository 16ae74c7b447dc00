// GoogleTest's main inside MPI: every rank runs the same tests in the same order, so the
// collectives inside them meet. A test fails when it fails on any rank (mpirun's exit
// status is then non-zero), so tests check results with EXPECT_* after their collectives,
// never with an ASSERT_* that would leave the other ranks waiting in one.
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int failed = RUN_ALL_TESTS();
  MPI_Finalize();
  return failed;
}
