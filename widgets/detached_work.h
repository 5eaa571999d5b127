#pragma once

#include <QCoreApplication>
#include <QPointer>

#include <atomic>
#include <thread>
#include <utility>

namespace ws {

namespace detail {
std::atomic<int>& detachedWorkCount();
}

// How many startDetached works are still running. main() ends the process without running
// destructors when some are at quit, so that none meets the teardown of what it reads.
int detachedWorkRunning();

/*
 * startDetached: `work()` on a thread of its own that nobody joins, then `deliver(*view, result)` on
 * the GUI thread if `view` still exists. So closing a view, a tab or the window never waits for an
 * analysis that cannot stop early (the Overview, the memory curves, line totals): `work` must own
 * (by shared_ptr) everything it reads and must not touch the view. Call from the GUI thread.
 */
template <class View, class Work, class Deliver>
void startDetached(View* view, Work work, Deliver deliver) {
    ++detail::detachedWorkCount();
    std::thread([guard = QPointer<View>(view), work = std::move(work), deliver = std::move(deliver)]() mutable {
        auto result = work();
        // To the application object, which outlives every view; the guard is read there.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, deliver = std::move(deliver), result = std::move(result)]() mutable {
                if (View* v = guard.data())
                    deliver(*v, std::move(result));
            },
            Qt::QueuedConnection);
        --detail::detachedWorkCount(); // after the post: a count of 0 means nothing is left to post
    }).detach();
}

} // namespace ws
