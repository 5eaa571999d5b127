// The Live tab of a capture that is still being written (issue #26): each growth of the folder is
// imported again and shown, the view following the newest records.

#include "live_capture.h"

#include "model/event_kind.h"
#include "model/session.h"
#include "session_loader.h"
#include "session_page.h"
#include "time_viewport.h"

#include <QFile>
#include <QPointer>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace ws;

namespace {

std::shared_ptr<const Session> shown(const LiveCapture& live) { return live.session(); }

size_t kernelsOf(const std::shared_ptr<const Session>& s) {
    size_t n = 0;
    if (!s)
        return n;
    for (const Track& t : s->tracks())
        for (size_t i = 0; i < t.start.size(); ++i)
            n += s->kindOf(t, i) == EventKind::Kernel;
    return n;
}

// The page's bottom tabs (the tab widget that holds "Kernels").
QTabWidget* bottomTabs(SessionPage* page) {
    for (QTabWidget* t : page->findChildren<QTabWidget*>())
        for (int i = 0; i < t->count(); ++i)
            if (t->tabText(i) == QStringLiteral("Kernels"))
                return t;
    return nullptr;
}

} // namespace

TEST(LiveCapture, TheTabGrowsWithTheCaptureAndFollowsItsEnd) {
    QFile source(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/captures/vector_add.wscap"));
    ASSERT_TRUE(source.open(QIODevice::ReadOnly));
    const QByteArray all = source.readAll();
    QTemporaryDir dir;
    QFile stream(dir.filePath(QStringLiteral("gpu7-1.wscap")));
    ASSERT_TRUE(stream.open(QIODevice::WriteOnly));
    stream.write(all.left(all.size() / 2)); // half written, cut inside a record
    stream.flush();

    QTabWidget tabs;
    LiveCapture live(&tabs);
    QSignalSpy updated(&live, &LiveCapture::updated);
    live.follow(dir.path());
    ASSERT_TRUE(updated.wait(10000));
    ASSERT_EQ(tabs.count(), 1);
    ASSERT_TRUE(live.page());
    const size_t early = kernelsOf(shown(live));
    EXPECT_GT(early, 0u);
    EXPECT_LT(early, 20u);
    EXPECT_TRUE(tabs.tabText(0).startsWith(QStringLiteral("Live")));
    SessionPage* first = live.page();
    // An analysis tab shown while recording is built over the model of that moment.
    ASSERT_TRUE(first->showTab(QStringLiteral("kernels"), true));
    QTabWidget* bottom = bottomTabs(first);
    ASSERT_NE(bottom, nullptr);
    const QPointer<QWidget> kernelsBefore = bottom->currentWidget();
    const int kernelsIndex = bottom->currentIndex();

    stream.write(all.mid(all.size() / 2));
    stream.flush();
    live.follow(dir.path()); // within a second of the last import: taken up once that second is over
    ASSERT_TRUE(updated.wait(10000));
    ASSERT_EQ(tabs.count(), 1); // one tab, its page given the newer model
    EXPECT_EQ(live.page(), first);
    const std::shared_ptr<const Session> s = shown(live);
    ASSERT_TRUE(s);
    EXPECT_EQ(kernelsOf(s), 20u);
    EXPECT_EQ(first->session()->session, s);
    // The kernels tab in front was built again over the newer model, in the same place.
    EXPECT_EQ(bottom->currentIndex(), kernelsIndex);
    EXPECT_EQ(bottom->tabText(kernelsIndex), QStringLiteral("Kernels"));
    EXPECT_NE(bottom->currentWidget(), kernelsBefore.data());
    EXPECT_EQ(bottom->indexOf(kernelsBefore), -1);
    // The view ends at the newest record.
    SessionPage* page = live.page();
    ASSERT_NE(page, nullptr);
    if (const TimeViewport* viewport = page->timeViewport()) {
        EXPECT_GE(viewport->t1(), s->endNs());
        EXPECT_LE(viewport->t0(), s->endNs());
    }

    if (const QString shots = qEnvironmentVariable("WS_SCREENSHOT_DIR"); !shots.isEmpty()) { // to look at it
        tabs.resize(1200, 700);
        tabs.show();
        QTest::qWait(300);
        tabs.grab().save(shots + QStringLiteral("/live_capture.png"));
    }
    live.stop();
    EXPECT_EQ(tabs.count(), 0);
}
