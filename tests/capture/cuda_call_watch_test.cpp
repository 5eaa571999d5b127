#include "inject/cudacallwatch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

using ws::CudaCallWatch;

// The sampler reads which blocking CUDA call another thread is inside (issue #27).
TEST(CudaCallWatch, AnotherThreadSeesTheCallInProgressUntilItReturns) {
    std::atomic<int> stage{0};
    std::atomic<uint32_t> tid{0};
    std::thread worker([&] {
        tid = static_cast<uint32_t>(::syscall(SYS_gettid));
        CudaCallWatch::enter(1, 42); // e.g. cuStreamSynchronize
        stage = 1;
        while (stage != 2)
            std::this_thread::yield();
        CudaCallWatch::leave();
        stage = 3;
        while (stage != 4)
            std::this_thread::yield();
    });
    while (stage != 1)
        std::this_thread::yield();
    CudaCallWatch::Call inside = CudaCallWatch::current(tid);
    EXPECT_EQ(inside.domain, 1);
    EXPECT_EQ(inside.cbid, 42u);
    stage = 2;
    while (stage != 3)
        std::this_thread::yield();
    EXPECT_EQ(CudaCallWatch::current(tid).cbid, 0u);
    stage = 4;
    worker.join();
    // A thread that never made a watched call is inside none.
    EXPECT_EQ(CudaCallWatch::current(static_cast<uint32_t>(::syscall(SYS_gettid)) + 100000).cbid, 0u);
}
