#include "app_environment.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
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

QString moveAsideUnreadableSettings() {
    const QString fileName = QSettings().fileName();
    if (!QFileInfo::exists(fileName))
        return {};
    // Parsed from a copy: QSettings keeps one parsed instance per file for the whole process, so a
    // QSettings made earlier would hide the status of this file's first parse.
    QTemporaryDir probeDir;
    const QString probe = probeDir.filePath(QStringLiteral("probe.conf"));
    if (!probeDir.isValid() || !QFile::copy(fileName, probe)) {
        if (QFileInfo(fileName).isReadable())
            return {}; // cannot check here: leave it
    } else if (QSettings(probe, QSettings::IniFormat).status() == QSettings::NoError) {
        return {};
    }
    const QString aside =
        fileName + QStringLiteral(".unreadable-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    return QFile::rename(fileName, aside) ? aside : QString();
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

    // English needs a translator too, for its plurals ("1 item", "2 items"); the C locale is English.
    const QString ourName = localeName == QLatin1String("C") || localeName.startsWith(QLatin1String("en"))
                                ? QStringLiteral("en")
                                : localeName;
    auto* ours = new QTranslator(&app);
    if (ours->load(QStringLiteral(":/i18n/warpscope_") + ourName)) {
        QCoreApplication::installTranslator(ours);
        return true;
    }
    delete ours;
    return false;
}

} // namespace ws::AppEnvironment
