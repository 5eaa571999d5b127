#include "session_library_dialog.h"
#include "session_loader.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ws;

TEST(SessionLoader, StoresANewTraceThenReopensItFromTheLibrary) {
    QTemporaryDir library;
    QTemporaryDir traces;
    const QString trace = traces.filePath(QStringLiteral("bert.pt.trace.json.gz"));
    ASSERT_TRUE(QFile::copy(QStringLiteral(WARPSCOPE_SAMPLE_TRACE), trace));
    SessionLoader loader;
    loader.setLibraryDirectory(library.path());

    QSignalSpy loaded(&loader, &SessionLoader::loaded);
    QSignalSpy stored(&loader, &SessionLoader::stored);
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
