#include "inject/threadbuffers.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

struct Item {
    uint64_t sequence;
    uint32_t producer;
};

// What one drain returned, per thread id, in the order given.
using Drained = std::map<uint32_t, std::vector<Item>>;

void drainInto(ws::ThreadBuffers<Item>& buffers, Drained& out) {
    buffers.drain([&](uint32_t threadId, std::span<const Item> items) {
        out[threadId].insert(out[threadId].end(), items.begin(), items.end());
    });
}

} // namespace

// Items from several threads, drained while they are added: each arrives once, in its thread's order,
// across chunk boundaries, including the items of threads that have ended (issue #25: the launch
// recorder's buffers are lock-free).
TEST(ThreadBuffers, EveryItemIsDrainedOnceInOrderWhileThreadsAdd) {
    ws::ThreadBuffers<Item> buffers;
    constexpr int kThreads = 4;
    const uint64_t perThread = 5 * ws::ThreadBuffers<Item>::kChunkItems + 17;
    std::atomic<int> running{kThreads};
    std::vector<uint32_t> tids(kThreads);
    std::vector<std::thread> threads;
    for (int p = 0; p < kThreads; ++p)
        threads.emplace_back([&, p] {
            tids[p] = static_cast<uint32_t>(::syscall(SYS_gettid));
            for (uint64_t i = 0; i < perThread; ++i)
                buffers.add(Item{i, static_cast<uint32_t>(p)});
            --running;
        });
    Drained drained;
    int drains = 0;
    while (running > 0) {
        drainInto(buffers, drained);
        ++drains;
    }
    for (std::thread& t : threads)
        t.join();
    drainInto(buffers, drained); // what was added after the last drain, from threads now ended
    ASSERT_EQ(drained.size(), static_cast<size_t>(kThreads));
    for (int p = 0; p < kThreads; ++p) {
        const std::vector<Item>& items = drained[tids[p]];
        ASSERT_EQ(items.size(), perThread) << "thread " << p << " after " << drains << " drains";
        for (uint64_t i = 0; i < perThread; ++i) {
            ASSERT_EQ(items[i].sequence, i) << "thread " << p;
            ASSERT_EQ(items[i].producer, static_cast<uint32_t>(p));
        }
    }
    Drained nothing;
    drainInto(buffers, nothing);
    EXPECT_TRUE(nothing.empty());
}

// A chunk filled exactly: the next item starts a new one, and a drain between the two sees both.
TEST(ThreadBuffers, AFullChunkAndTheNextAreDrainedAcrossTheBoundary) {
    ws::ThreadBuffers<Item> buffers;
    const uint32_t n = ws::ThreadBuffers<Item>::kChunkItems;
    for (uint32_t i = 0; i < n; ++i)
        buffers.add(Item{i, 0});
    Drained first;
    drainInto(buffers, first);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first.begin()->second.size(), n);
    buffers.add(Item{n, 0});
    buffers.add(Item{n + 1, 0});
    Drained second;
    drainInto(buffers, second);
    ASSERT_EQ(second.size(), 1u);
    ASSERT_EQ(second.begin()->second.size(), 2u);
    EXPECT_EQ(second.begin()->second[0].sequence, n);
    EXPECT_EQ(second.begin()->second[1].sequence, n + 1);
}
