#pragma once

#include <QStringList>

namespace ws {

/* The Open Recent list, newest first, kept in QSettings. Paths are stored absolute and unique; the
 * list is capped at kMaxEntries. Files that have disappeared are dropped when the list is read. */
class RecentFiles {
public:
    static constexpr int kMaxEntries = 10;

    static QStringList list();
    static void add(const QString& path);
    static void remove(const QString& path);
    static void clear();
};

} // namespace ws
