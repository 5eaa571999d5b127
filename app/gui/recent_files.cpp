#include "recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace ws {

namespace {
const char kKey[] = "recentFiles";

void store(const QStringList& files) { QSettings().setValue(QLatin1String(kKey), files); }
} // namespace

QStringList RecentFiles::list() {
    QStringList files = QSettings().value(QLatin1String(kKey)).toStringList();
    files.erase(std::remove_if(files.begin(), files.end(), [](const QString& f) { return !QFileInfo::exists(f); }),
                files.end());
    return files;
}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = QSettings().value(QLatin1String(kKey)).toStringList();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxEntries)
        files.removeLast();
    store(files);
}

void RecentFiles::remove(const QString& path) {
    QStringList files = QSettings().value(QLatin1String(kKey)).toStringList();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    store(files);
}

void RecentFiles::clear() { store({}); }

} // namespace ws
