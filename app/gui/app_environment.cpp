#include "app_environment.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QStandardPaths>
#include <QTranslator>

#ifndef WARPSCOPE_SOURCE_SAMPLES_DIR
#define WARPSCOPE_SOURCE_SAMPLES_DIR ""
#endif

namespace ws::AppEnvironment {

namespace {
const char kSampleFile[] = "h100_gaunernst_bert-small-uncased__1016001.json.gz";
}

void setApplicationIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("Warpscope"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("warpscope.dev"));
    QCoreApplication::setApplicationName(QStringLiteral("Warpscope"));
}

QIcon applicationIcon() {
    QIcon icon;
    for (int size : {16, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/warpscope-%1.png").arg(size), QSize(size, size));
    return icon;
}

QString sessionLibraryDir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/sessions");
}

QString sampleTracePath() {
    const QString appDir = QCoreApplication::applicationDirPath();
    const QStringList candidates = {
        appDir + QStringLiteral("/../share/warpscope/samples/"),
        QStringLiteral(WARPSCOPE_SOURCE_SAMPLES_DIR "/"),
    };
    for (const QString& dir : candidates) {
        const QFileInfo file(dir + QLatin1String(kSampleFile));
        if (file.isFile())
            return file.canonicalFilePath();
    }
    return {};
}

bool installTranslators(QCoreApplication& app, const QString& localeName) {
    // Qt's own strings (standard buttons, file dialogs) when the distribution ships them.
    auto* qtTranslator = new QTranslator(&app);
    if (qtTranslator->load(QStringLiteral("qt_") + localeName, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qtTranslator);
    else
        delete qtTranslator;

    auto* ours = new QTranslator(&app);
    if (ours->load(QStringLiteral(":/i18n/warpscope_") + localeName)) {
        QCoreApplication::installTranslator(ours);
        return true;
    }
    delete ours;
    return false;
}

} // namespace ws::AppEnvironment
