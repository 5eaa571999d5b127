#include "recent_files.h"

#include "remote/remote_url.h"

#include <algorithm>

#include <QFileInfo>
#include <QSettings>

namespace ws {

namespace {
const char kKey[] = "recentFiles";

void store(const QStringList& files) { QSettings().setValue(QLatin1String(kKey), files); }

// A URL is kept as it is, but never with its secrets; a path is kept absolute.
QString normalized(const QString& path) {
    if (isRemoteUrl(path.toStdString()))
        return QString::fromStdString(redactUrl(path.toStdString()));
    return QFileInfo(path).absoluteFilePath();
}
} // namespace

QStringList RecentFiles::list() {
    QStringList files = QSettings().value(QLatin1String(kKey)).toStringList();
    files.erase(std::remove_if(files.begin(), files.end(), [](const QString& f) { return !isRemoteUrl(f.toStdString()) && !QFileInfo::exists(f); }),
                files.end());
    return files;
}

void RecentFiles::add(const QString& path) {
    const QString absolute = normalized(path);
    QStringList files = QSettings().value(QLatin1String(kKey)).toStringList();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxEntries)
        files.removeLast();
    store(files);
}

void RecentFiles::remove(const QString& path) {
    QStringList files = QSettings().value(QLatin1String(kKey)).toStringList();
    files.removeAll(normalized(path));
    store(files);
}

void RecentFiles::clear() { store({}); }

} // namespace ws
