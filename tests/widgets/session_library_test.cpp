#include "session_library_dialog.h"
#include "bookmark_model.h"
#include "model/session.h"
#include "session_loader.h"
#include "session_page.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ws;

namespace {

// A loader over a private library folder, with a private copy of the sample trace to load.
struct LibraryFixture {
    QTemporaryDir library;
    QTemporaryDir traces;
    QString trace;
    SessionLoader loader;
    QSignalSpy loaded{&loader, &SessionLoader::loaded};
    QSignalSpy stored{&loader, &SessionLoader::stored};

    explicit LibraryFixture(const QString& name) : trace(traces.filePath(name)) {
        QFile::copy(QStringLiteral(WARPSCOPE_SAMPLE_TRACE), trace);
        loader.setLibraryDirectory(library.path());
    }
};

} // namespace

TEST(SessionLoader, StoresANewTraceThenReopensItFromTheLibrary) {
    LibraryFixture fx(QStringLiteral("bert.pt.trace.json.gz"));
    SessionLoader& loader = fx.loader;
    QSignalSpy& loaded = fx.loaded;
    QSignalSpy& stored = fx.stored;
    const QString& trace = fx.trace;
    QTemporaryDir& library = fx.library;
    ASSERT_TRUE(loader.load(trace));
    ASSERT_TRUE(loaded.wait(60000));
    auto first = loaded.takeFirst().at(0).value<std::shared_ptr<const LoadedSession>>();
    EXPECT_FALSE(first->fromLibrary);
    if (stored.isEmpty()) {
        ASSERT_TRUE(stored.wait(60000));
    }
    const QString sessionFile = stored.takeFirst().at(1).toString();
    EXPECT_TRUE(sessionFile.endsWith(QStringLiteral(".warpscope")));
    EXPECT_TRUE(QFile::exists(sessionFile));

    ASSERT_TRUE(loader.load(trace));
    ASSERT_TRUE(loaded.wait(60000));
    auto second = loaded.takeFirst().at(0).value<std::shared_ptr<const LoadedSession>>();
    EXPECT_TRUE(second->fromLibrary);
    EXPECT_EQ(second->storedPath, sessionFile);
    EXPECT_EQ(second->summary.kernelCount, first->summary.kernelCount);

    // The library window lists it.
    const QString before = SessionLibraryDialog::libraryDirectory();
    SessionLibraryDialog::setLibraryDirectory(library.path());
    SessionLibraryDialog dialog;
    EXPECT_EQ(dialog.rowCount(), 1);
    SessionLibraryDialog::setLibraryDirectory(before);
}

TEST(SessionPage, BookmarksAreSavedInTheStoredSessionAndComeBack) {
    LibraryFixture fx(QStringLiteral("bert2.pt.trace.json.gz"));
    SessionLoader& loader = fx.loader;
    QSignalSpy& loaded = fx.loaded;
    QSignalSpy& stored = fx.stored;
    const QString& trace = fx.trace;
    ASSERT_TRUE(loader.load(trace));
    ASSERT_TRUE(loaded.wait(60000));
    auto first = loaded.takeFirst().at(0).value<std::shared_ptr<const LoadedSession>>();
    int64_t ts = 0;
    {
        SessionPage page(first);
        ts = first->session->startNs() + 1'000'000;
        page.addBookmark(ts, QStringLiteral("slow data loader")); // before the session is stored
        if (stored.isEmpty()) {
            ASSERT_TRUE(stored.wait(60000));
        }
        page.setStoredPath(stored.takeFirst().at(1).toString());
    }
    ASSERT_TRUE(loader.load(trace)); // reopened from the library, bookmarks with it
    ASSERT_TRUE(loaded.wait(60000));
    auto second = loaded.takeFirst().at(0).value<std::shared_ptr<const LoadedSession>>();
    ASSERT_TRUE(second->fromLibrary);
    SessionPage reopened(second);
    ASSERT_EQ(reopened.bookmarks()->rowCount(), 1);
    EXPECT_EQ(reopened.bookmarks()->bookmarks()[0].ts, ts);
    EXPECT_EQ(reopened.bookmarks()->bookmarks()[0].note, "slow data loader");
}
