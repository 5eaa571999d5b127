#include "io/usable_cores.h"

#include <gtest/gtest.h>

#include <sched.h>

using namespace ws;

// The thread count follows the CPUs the process may use (taskset, a cpuset), not the machine's.
TEST(UsableCores, FollowTheAffinityMask) {
    cpu_set_t before;
    CPU_ZERO(&before);
    ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
    EXPECT_EQ(usableCores(), static_cast<unsigned>(CPU_COUNT(&before)));
    int first = 0;
    while (!CPU_ISSET(first, &before))
        ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    EXPECT_EQ(usableCores(), 1u);
    ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
}
