// Closing a view never waits for its background analysis (issue #16): startDetached's work runs on
// a thread nobody joins, and its result reaches the view only while the view exists.
#include "detached_work.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QWidget>

#include <future>
#include <memory>

#include <gtest/gtest.h>

using namespace ws;

namespace {

// Spins the event loop until the detached works have all ended and posted what they had.
void drain() {
    QElapsedTimer timer;
    timer.start();
    while (detachedWorkRunning() > 0 && timer.elapsed() < 30000)
        QCoreApplication::processEvents();
    QCoreApplication::processEvents();
}

} // namespace

TEST(DetachedWork, DeliversToALiveView) {
    QWidget view;
    int delivered = 0;
    startDetached(&view, [] { return 42; }, [&](QWidget& v, int value) {
        EXPECT_EQ(&v, &view);
        delivered = value;
    });
    drain();
    EXPECT_EQ(delivered, 42);
    EXPECT_EQ(detachedWorkRunning(), 0);
}

TEST(DetachedWork, DestroyingTheViewDoesNotWaitAndDropsTheResult) {
    auto view = std::make_unique<QWidget>();
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    bool delivered = false;
    // The work cannot finish until the view is gone: had destruction waited for it, this would hang.
    startDetached(view.get(), [released] { released.wait(); return 1; }, [&](QWidget&, int) { delivered = true; });
    EXPECT_EQ(detachedWorkRunning(), 1);
    view.reset();
    release.set_value();
    drain();
    EXPECT_FALSE(delivered);
    EXPECT_EQ(detachedWorkRunning(), 0);
}
